/* mindspore.c - the format row of the legacy MindSpore / MindInsight
 * profiler/ folder (MindSpore <= 2.3, GPU and Ascend): the folder is
 * claimed when a file in it has the content of one of MindSpore's files;
 * its files are then grouped into runs, one per rank and device family
 * (the files end in _{rank}: a cluster's profiler/ folder holds them all),
 * and each run is read by mindspore_ascend.c or mindspore_gpu.c.  Files
 * of no known content are skipped with a warning. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../internal.h"
#include "mindspore.h"
#include "profreport/formats.h"

#define MAX_FILES 4096 /* members of one folder we look at */
#define SNIFF_FILES 256

/* What a folder holds, file by file. */
struct folder {
    struct pr_ms_file *v; /* owned, sorted by path */
    size_t n, cap;
    char **skipped; /* owned: "path\0why" pairs, as two strings */
    size_t n_skipped, cap_skipped;
};

/* Kinds whose content is MindSpore's alone: one of them is enough to
 * claim a folder.  The others (a lone number, rows of integers) need
 * company. */
static int
is_strong(enum pr_ms_kind k)
{
    return k != PR_MS_UNKNOWN && k != PR_MS_MIN_CYCLE &&
           k != PR_MS_DEVICE_QUEUE && k != PR_MS_GPU_STEP_TRACE &&
           k != PR_MS_GPU_KERNEL_TS && k != PR_MS_REDUNDANT;
}

static enum pr_ms_kind
classify_path(const char *path, char *head)
{
    struct pr_error e;
    size_t n;
    int whole;

    pr_error_clear(&e);
    if (pr_source_head(path, head, PR_MS_HEAD, &n, &whole, &e) != PR_OK)
        return PR_MS_UNKNOWN;
    return pr_ms_classify(head, n, whole);
}

static int
is_regular(const char *path, int *dir)
{
    struct stat st;

    *dir = 0;
    if (stat(path, &st) != 0)
        return 0;
    *dir = S_ISDIR(st.st_mode);
    return S_ISREG(st.st_mode);
}

/* A folder is ours when one of its first files has MindSpore content. */
static enum pr_claim
sniff_dir(const char *dir)
{
    char head[PR_MS_HEAD], path[4096];
    DIR *d = opendir(dir);
    struct dirent *de;
    enum pr_claim c = PR_CLAIM_NO;
    int seen = 0, is_dir;

    if (d == NULL)
        return PR_CLAIM_NO;
    while (c == PR_CLAIM_NO && seen < SNIFF_FILES && (de = readdir(d))) {
        int k = snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);

        if (de->d_name[0] == '.' || k < 0 || (size_t)k >= sizeof(path) ||
            !is_regular(path, &is_dir))
            continue;
        seen++;
        if (is_strong(classify_path(path, head)))
            c = PR_CLAIM_SURE;
    }
    closedir(d);
    return c;
}

/* A file given on its own is ours when it is a MindSpore timeline (the
 * Chrome reader would take it and find no category) or a table only
 * MindSpore writes. */
static enum pr_claim
sniff(const struct pr_probe *p)
{
    enum pr_ms_kind k;

    if (p->is_dir)
        return sniff_dir(p->path);
    if (p->head == NULL)
        return PR_CLAIM_NO;
    k = pr_ms_classify(p->head, p->n_head < PR_MS_HEAD ? p->n_head : PR_MS_HEAD,
                       p->whole && p->n_head <= PR_MS_HEAD);
    return is_strong(k) && k != PR_MS_FLOPS_SUMMARY && k != PR_MS_CPU_UTIL
               ? PR_CLAIM_SURE
               : PR_CLAIM_NO;
}

/* ------------------------------------------------------------ the folder */

static void
folder_free(struct folder *f)
{
    size_t i;

    for (i = 0; i < f->n; i++)
        free(f->v[i].path);
    for (i = 0; i < f->n_skipped; i++)
        free(f->skipped[i]);
    free(f->v);
    free(f->skipped);
}

static enum pr_status
add_skip(struct folder *f, const char *path, const char *why)
{
    size_t np = strlen(path) + 1, nw = strlen(why) + 1;
    char *s;

    if (pr_grow((void **)&f->skipped, &f->cap_skipped, f->n_skipped + 1,
                sizeof(*f->skipped)) != PR_OK ||
        (s = malloc(np + nw)) == NULL)
        return PR_E_NOMEM;
    memcpy(s, path, np);
    memcpy(s + np, why, nw);
    f->skipped[f->n_skipped++] = s;
    return PR_OK;
}

static enum pr_status
add_file(struct folder *f, const char *path, enum pr_ms_kind kind)
{
    struct pr_ms_file *m;
    const char *base = strrchr(path, '/');

    if (pr_grow((void **)&f->v, &f->cap, f->n + 1, sizeof(*f->v)) != PR_OK)
        return PR_E_NOMEM;
    m = &f->v[f->n];
    m->path = malloc(strlen(path) + 1);
    if (m->path == NULL)
        return PR_E_NOMEM;
    memcpy(m->path, path, strlen(path) + 1);
    m->kind = kind;
    m->rank = pr_ms_rank_of(base ? base + 1 : path);
    f->n++;
    return PR_OK;
}

static enum pr_status
add_entry(struct folder *f, const char *path, char *head)
{
    enum pr_ms_kind k;
    int dir;

    if (!is_regular(path, &dir))
        return add_skip(f, path,
                        dir ? "a folder inside a MindSpore profiler folder "
                              "(give it as an input of its own)"
                            : "not a regular file");
    k = classify_path(path, head);
    if (k == PR_MS_UNKNOWN)
        return add_skip(f, path,
                        "not a file of MindSpore's profiler that profreport "
                        "reads");
    return add_file(f, path, k);
}

static int
cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static enum pr_status
list_names(const char *dir, char ***names, size_t *n, struct pr_error *err)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    size_t cap = 0;

    *names = NULL;
    *n = 0;
    if (d == NULL)
        return pr_error_set(err, PR_E_IO, "%s: cannot open folder: %s", dir,
                            strerror(errno));
    while ((de = readdir(d)) != NULL && *n < MAX_FILES) {
        char *s;
        if (de->d_name[0] == '.')
            continue;
        if (pr_grow((void **)names, &cap, *n + 1, sizeof(**names)) != PR_OK ||
            (s = malloc(strlen(de->d_name) + 1)) == NULL) {
            closedir(d);
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
        }
        memcpy(s, de->d_name, strlen(de->d_name) + 1);
        (*names)[(*n)++] = s;
    }
    closedir(d);
    if (*n > 1)
        qsort(*names, *n, sizeof(**names), cmp_name);
    return PR_OK;
}

static enum pr_status
scan_folder(const char *dir, struct folder *f, struct pr_error *err)
{
    char **names, head[PR_MS_HEAD];
    size_t n, i;
    struct pr_buf path;
    enum pr_status st = list_names(dir, &names, &n, err);

    pr_buf_init(&path, 0);
    for (i = 0; i < n && st == PR_OK; i++) {
        pr_buf_reset(&path);
        if (pr_buf_printf(&path, "%s%s%s", dir,
                          dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/",
                          names[i]) != PR_OK ||
            add_entry(f, path.data, head) != PR_OK)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    for (i = 0; i < n; i++)
        free(names[i]);
    free(names);
    pr_buf_free(&path);
    return st;
}

/* ------------------------------------------------------------ runs */

#define MAX_UNITS 256

struct units {
    struct pr_ms_unit v[MAX_UNITS];
    size_t n;
};

static struct pr_ms_unit *
unit_for(struct units *u, int64_t rank, int family)
{
    size_t i;

    for (i = 0; i < u->n; i++)
        if (u->v[i].rank == rank && u->v[i].family == family)
            return &u->v[i];
    if (u->n == MAX_UNITS)
        return NULL;
    memset(&u->v[u->n], 0, sizeof(u->v[0]));
    u->v[u->n].rank = rank;
    u->v[u->n].family = family;
    return &u->v[u->n++];
}

/* Put a file into a run: its family's run of its rank (a file without a
 * rank into every run of its family; a data-pipeline file into the run of
 * its rank, Ascend first).  0 when no run takes it. */
static int
place(struct units *u, const struct pr_ms_file *m, struct folder *f)
{
    int family = pr_ms_kind_family(m->kind), placed = 0;
    size_t i;

    if (m->kind == PR_MS_REDUNDANT)
        return 1; /* known, and held by another file too */
    for (i = 0; i < u->n; i++) {
        struct pr_ms_unit *x = &u->v[i];

        if ((family != 0 && x->family != family) ||
            (m->rank >= 0 && x->rank != m->rank))
            continue;
        if (x->by_kind[m->kind] != NULL) {
            (void)add_skip(f, m->path,
                           "a second file of this kind for the same rank");
            return 1;
        }
        x->by_kind[m->kind] = m;
        placed = 1;
        if (family == 0)
            break;
    }
    return placed;
}

/* Runs: one per (family, rank) that a file of that family names. */
static enum pr_status
make_units(struct folder *f, struct units *u, struct pr_error *err)
{
    size_t i;

    u->n = 0;
    for (i = 0; i < f->n; i++) {
        int family = pr_ms_kind_family(f->v[i].kind);

        if (family != 0 && f->v[i].rank >= 0 &&
            unit_for(u, f->v[i].rank, family) == NULL)
            return pr_error_set(err, PR_E_LIMIT, "more than %d ranks",
                                MAX_UNITS);
    }
    for (i = 0; i < f->n; i++)
        if (!place(u, &f->v[i], f) &&
            add_skip(f, f->v[i].path,
                     "no run of MindSpore's profiler to read it with (no "
                     "timeline, operator or step file of its rank)") != PR_OK)
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}

/* ------------------------------------------------------------ load */

static enum pr_status
note_skips(struct pr_trace *t, const struct folder *f, struct pr_error *err)
{
    size_t i;

    for (i = 0; i < f->n_skipped; i++) {
        const char *path = f->skipped[i];

        if (pr_trace_add_skip(t, path, path + strlen(path) + 1) != PR_OK)
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    return PR_OK;
}

/* Bytes of the files a run reads (t->bytes). */
static uint64_t
unit_bytes(const struct pr_ms_unit *u)
{
    uint64_t sum = 0;
    struct stat st;
    size_t k;

    for (k = 0; k < PR_MS_KIND_COUNT; k++)
        if (u->by_kind[k] && stat(u->by_kind[k]->path, &st) == 0)
            sum += (uint64_t)st.st_size;
    return sum;
}

static enum pr_status
read_unit(const struct pr_ms_unit *u, const struct units *all,
          const struct pr_read_opts *o, struct pr_trace **out,
          struct pr_error *err)
{
    struct pr_trace *t = pr_trace_new();
    uint64_t max =
        o && o->max_input_bytes ? o->max_input_bytes : PR_READ_DEFAULT_MAX;
    struct pr_ms_praw pipe; /* minddata_pipeline_raw: both readers' */
    enum pr_status st;
    char name[48];
    size_t i;
    int twin = 0;

    *out = NULL;
    if (t == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    pr_ms_praw_init(
        &pipe,
        u->by_kind[PR_MS_MINDDATA] ? u->by_kind[PR_MS_MINDDATA]->path : NULL,
        max);
    st = u->family == 2 ? pr_ms_gpu_read(u, o, t, err)
                        : pr_ms_ascend_read(u, o, t, err);
    if (st == PR_OK && u->by_kind[PR_MS_CPU_UTIL] != NULL)
        st = pr_ms_cpu_read(u->by_kind[PR_MS_CPU_UTIL]->path, &pipe, max, t,
                            err);
    if (st == PR_OK)
        st = pr_ms_minddata_read(u, &pipe, max, t, err);
    pr_ms_praw_free(&pipe);
    for (i = 0; i < all->n; i++)
        twin |= &all->v[i] != u && all->v[i].rank == u->rank;
    if (u->rank >= 0) {
        snprintf(name, sizeof(name), "rank%lld%s", (long long)u->rank,
                 twin && u->family == 2 ? "-gpu" : "");
        t->worker = pr_strtab_intern(t->strs, name, strlen(name));
        t->rank = u->rank;
    }
    if (st != PR_OK) {
        pr_trace_free(t);
        return st;
    }
    t->bytes = unit_bytes(u);
    pr_trace_finish(t);
    *out = t;
    return PR_OK;
}

/* A run without events is dropped; what it skipped is still said. */
static enum pr_status
drop_run(struct pr_trace *t, struct folder *f, struct pr_error *err)
{
    size_t i;
    enum pr_status st = PR_OK;

    for (i = 0; i < t->n_skipped && st == PR_OK; i++)
        if (add_skip(f, pr_trace_str(t, t->skipped[i].path),
                     pr_trace_str(t, t->skipped[i].why)) != PR_OK)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    pr_trace_free(t);
    return st;
}

/* Read every run with events; chain them in rank order. */
static enum pr_status
read_units(const struct units *u, struct folder *f,
           const struct pr_read_opts *o, struct pr_trace **first,
           struct pr_error *err)
{
    struct pr_trace **tail = first, *t;
    enum pr_status st = PR_OK;
    size_t i;

    *first = NULL;
    for (i = 0; i < u->n && st == PR_OK; i++) {
        st = read_unit(&u->v[i], u, o, &t, err);
        if (st != PR_OK)
            break;
        if (t->n_events == 0) {
            st = drop_run(t, f, err);
            continue;
        }
        *tail = t;
        tail = &t->next;
    }
    if (st != PR_OK) {
        pr_trace_free(*first);
        *first = NULL;
    }
    return st;
}

static int
cmp_unit(const void *a, const void *b)
{
    const struct pr_ms_unit *x = a, *y = b;

    if (x->family != y->family)
        return x->family < y->family ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static enum pr_status
load(const char *path, const struct pr_read_opts *o, struct pr_trace **out,
     struct pr_error *err)
{
    struct folder f;
    struct units *u = malloc(sizeof(*u));
    char head[PR_MS_HEAD];
    int dir;
    enum pr_status st;

    *out = NULL;
    memset(&f, 0, sizeof(f));
    if (u == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (is_regular(path, &dir))
        st = add_entry(&f, path, head) == PR_OK
                 ? PR_OK
                 : pr_error_set(err, PR_E_NOMEM, "out of memory");
    else
        st = scan_folder(path, &f, err);
    if (st == PR_OK)
        st = make_units(&f, u, err);
    if (st == PR_OK && u->n > 1)
        qsort(u->v, u->n, sizeof(u->v[0]), cmp_unit);
    if (st == PR_OK)
        st = read_units(u, &f, o, out, err);
    if (st == PR_OK && *out == NULL)
        st = pr_error_set(err, PR_E_NOT_FORMAT,
                          "%s: no operator, task or step data of MindSpore's "
                          "profiler",
                          path);
    if (st == PR_OK)
        st = note_skips(*out, &f, err);
    if (st != PR_OK) {
        pr_trace_free(*out);
        *out = NULL;
    }
    folder_free(&f);
    free(u);
    return st;
}

const struct pr_format pr_format_mindspore = {
    "mindspore", sniff, load, 0, "MindSpore profiler folder (<= 2.3)"};
