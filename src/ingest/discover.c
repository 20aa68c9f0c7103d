/* discover.c - input paths to inputs, each with its format (asked through
 * the format table, content first) and its worker and span names.  Reading
 * the inputs is each format's loader's job. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "profreport/buf.h"
#include "profreport/discover.h"

#define MAX_DEPTH 16
#define PATH_WHY 512 /* a skip reason that names another path */

/* A file or folder reached during a scan: symlinks can lead to one real
 * file twice, or into a loop that only MAX_DEPTH would end (after
 * exponentially many paths when a folder holds two loops). */
struct seen {
    dev_t dev;
    ino_t ino;
    char *path; /* owned: where it was reached first */
};

/* One discovery: the table asked, a buffer for file heads, and what it has
 * reached so far. */
struct scan {
    const struct pr_format_table *tab;
    struct pr_input_list *l;
    char *head;        /* owned, PR_PROBE_HEAD bytes */
    struct seen *seen; /* owned, n_seen */
    size_t n_seen, cap_seen;
    char *root; /* owned: the input folder's real path, NULL for a file */
};

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

static enum pr_status
add_file(struct pr_input_list *l, const char *path, int from_dir,
         const struct pr_format *fmt, struct pr_error *err)
{
    struct pr_input_file *f;
    const char *base = strrchr(path, '/');

    if (pr_grow((void **)&l->files, &l->cap, l->n + 1, sizeof(*f)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    f = &l->files[l->n];
    memset(f, 0, sizeof(*f));
    f->from_dir = from_dir;
    f->format = fmt;
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

/* The kind of `why` (added when new); NULL when out of memory. */
static struct pr_skip_kind *
skip_kind(struct pr_input_list *l, const char *why)
{
    struct pr_skip_kind *c;
    size_t i;

    for (i = 0; i < l->n_kinds; i++)
        if (l->kinds[i].why == NULL || strcmp(l->kinds[i].why, why) == 0)
            return &l->kinds[i];
    if (pr_grow((void **)&l->kinds, &l->cap_kinds, l->n_kinds + 1,
                sizeof(*c)) != PR_OK)
        return NULL;
    c = &l->kinds[l->n_kinds];
    c->n = 0;
    c->why = NULL; /* the last kind takes every reason after it */
    if (l->n_kinds + 1 < PR_SKIP_KINDS &&
        (c->why = dup_n(why, strlen(why))) == NULL)
        return NULL;
    l->n_kinds++;
    return c;
}

enum pr_status
pr_input_list_skip(struct pr_input_list *l, const char *path, const char *why,
                   int *named, struct pr_error *err)
{
    struct pr_input_skip *k;
    struct pr_skip_kind *c = skip_kind(l, why);

    if (named != NULL)
        *named = 0;
    if (c == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    l->n_skips++;
    if (c->n++ >= PR_SKIP_NAMED)
        return PR_OK; /* counted, not named */
    if (named != NULL)
        *named = 1;
    if (pr_grow((void **)&l->skipped, &l->cap_skipped, l->n_skipped + 1,
                sizeof(*k)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    k = &l->skipped[l->n_skipped];
    k->path = dup_n(path, strlen(path));
    k->why = dup_n(why, strlen(why));
    if (k->path == NULL || k->why == NULL) {
        free(k->path);
        free(k->why);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    l->n_skipped++;
    return PR_OK;
}

static enum pr_status
add_skip(struct pr_input_list *l, const char *path, const char *why,
         struct pr_error *err)
{
    return pr_input_list_skip(l, path, why, NULL, err);
}

static void
probe_init(struct pr_probe *p, const char *path, int is_dir)
{
    const char *base = strrchr(path, '/');

    memset(p, 0, sizeof(*p));
    p->path = path;
    p->base = base != NULL && base[1] != '\0' ? base + 1 : path;
    p->is_dir = is_dir;
}

/* Read a file's head into the probe; 0 (head left NULL) when it cannot be
 * read, with the reason in `why` and its status in *code. */
static int
probe_read(struct scan *sc, struct pr_probe *p, char *why, size_t cap,
           enum pr_status *code)
{
    struct pr_error e;
    size_t n;
    int whole;

    pr_error_clear(&e);
    *code = pr_source_head(p->path, sc->head, PR_PROBE_HEAD, &n, &whole, &e);
    if (*code != PR_OK) {
        snprintf(why, cap, "cannot read it (%.200s)", e.msg);
        return 0;
    }
    p->head = sc->head;
    p->n_head = n;
    p->whole = whole;
    return 1;
}

/* Why no format claims `p`, for messages. */
static void
unclaimed(const struct scan *sc, const struct pr_probe *p, int quote, char *why,
          size_t cap)
{
    char what[80], names[384];

    pr_formats_describe(p, quote, what, sizeof(what));
    pr_formats_names(sc->tab, names, sizeof(names));
    snprintf(why, cap, "not a format profreport reads (%s; it reads: %s)", what,
             names);
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static enum pr_status scan_dir(struct scan *sc, const char *dir, int depth,
                               struct pr_error *err);

/* Where the real file or folder of `st` was reached before, or NULL (and it
 * is noted as reached at `path`).  A linear search: run folders hold tens
 * to thousands of entries, and each is looked up once. */
static const char *
reached(struct scan *sc, const char *path, const struct stat *st,
        enum pr_status *oom)
{
    size_t i;
    struct seen *s;

    *oom = PR_OK;
    for (i = 0; i < sc->n_seen; i++) {
        if (sc->seen[i].dev == st->st_dev && sc->seen[i].ino == st->st_ino)
            return sc->seen[i].path;
    }
    if (pr_grow((void **)&sc->seen, &sc->cap_seen, sc->n_seen + 1,
                sizeof(*s)) != PR_OK) {
        *oom = PR_E_NOMEM;
        return NULL;
    }
    s = &sc->seen[sc->n_seen];
    s->dev = st->st_dev;
    s->ino = st->st_ino;
    s->path = dup_n(path, strlen(path));
    if (s->path == NULL) {
        *oom = PR_E_NOMEM;
        return NULL;
    }
    sc->n_seen++;
    return NULL;
}

/* A folder member that leads to a file or folder already reached (through
 * a symlink, or a hard link): read once, and say so. */
static enum pr_status
skip_again(struct scan *sc, const char *path, const struct stat *st,
           const char *first, struct pr_error *err)
{
    char why[PATH_WHY];
    size_t n = strlen(first);

    while (n > 1 && first[n - 1] == '/')
        n--; /* "run/" holds "run/x" */
    if (S_ISDIR(st->st_mode) && strncmp(path, first, n) == 0 && path[n] == '/')
        snprintf(why, sizeof(why),
                 "a symlink loop: it leads back to %.200s, which is being read",
                 first);
    else
        snprintf(why, sizeof(why), "the same %s as %.200s, read once",
                 S_ISDIR(st->st_mode) ? "folder" : "file", first);
    return add_skip(sc->l, path, why, err);
}

/* A folder member that is a regular file: its content must be claimed,
 * or its name when the content cannot be read (so that the loader reports
 * what is wrong with it). */
static enum pr_status
scan_file(struct scan *sc, const char *path, struct pr_error *err)
{
    struct pr_probe p;
    const struct pr_format *f;
    enum pr_status code;
    char why[PATH_WHY];
    int readable;

    probe_init(&p, path, 0);
    readable = probe_read(sc, &p, why, sizeof(why), &code);
    f = pr_formats_pick(sc->tab, &p, readable ? PR_CLAIM_SHAPE : PR_CLAIM_NAME,
                        NULL);
    if (f != NULL)
        return add_file(sc->l, path, 1, f, err);
    if (readable) /* a member: said by kind, never by its bytes */
        unclaimed(sc, &p, 0, why, sizeof(why));
    return add_skip(sc->l, path, why, err);
}

/* Non-zero for SQLite's own files beside a database ("x.db-wal",
 * "x.db-shm", "x.db-journal" next to "x.db"): they are read with it. */
static int
sqlite_side_file(const char *path)
{
    static const char *const tails[] = {"-wal", "-shm", "-journal"};
    size_t n = strlen(path), i, k;
    char stem[PATH_MAX];
    struct stat st;

    for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
        k = strlen(tails[i]);
        if (n <= k || n - k >= sizeof(stem) ||
            strcmp(path + n - k, tails[i]) != 0)
            continue;
        memcpy(stem, path, n - k);
        stem[n - k] = '\0';
        return stat(stem, &st) == 0 && S_ISREG(st.st_mode);
    }
    return 0;
}

/* Whether `path`, a symlink, leads to a place inside the input folder:
 * discovery follows links within the tree and never out of it (a link to
 * / would crawl the filesystem, one to a secret would be read). */
static int
link_inside(const struct scan *sc, const char *path)
{
    char *real = realpath(path, NULL);
    size_t k = sc->root != NULL ? strlen(sc->root) : 0;
    int in = real != NULL && sc->root != NULL &&
             strncmp(real, sc->root, k) == 0 &&
             (real[k] == '\0' || real[k] == '/' ||
              (k > 0 && sc->root[k - 1] == '/'));

    free(real);
    return in;
}

static enum pr_status
scan_entry(struct scan *sc, const char *path, const char *name, int depth,
           struct pr_error *err)
{
    struct stat st;
    struct pr_probe p;
    const struct pr_format *f;
    const char *first;
    enum pr_status oom;
    char why[160];

    if (name[0] == '.')
        return PR_OK; /* hidden files and folders are not the run's */
    if (sqlite_side_file(path))
        return PR_OK; /* part of the database beside it */
    if (!sc->l->follow_links && lstat(path, &st) == 0 && S_ISLNK(st.st_mode) &&
        stat(path, &st) == 0 && !link_inside(sc, path))
        return add_skip(sc->l, path,
                        "a link that leads out of the input folder (not "
                        "followed; --follow-links follows it)",
                        err);
    if (stat(path, &st) != 0) {
        snprintf(why, sizeof(why), "cannot read it (%s)", strerror(errno));
        return add_skip(sc->l, path, why, err);
    }
    if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) {
        first = reached(sc, path, &st, &oom);
        if (oom != PR_OK)
            return pr_error_set(err, oom, "out of memory");
        if (first != NULL)
            return skip_again(sc, path, &st, first, err);
    }
    if (S_ISREG(st.st_mode))
        return scan_file(sc, path, err);
    if (!S_ISDIR(st.st_mode))
        return add_skip(sc->l, path, "not a regular file or folder", err);
    probe_init(&p, path, 1);
    f = pr_formats_pick(sc->tab, &p, PR_CLAIM_NAME, NULL);
    if (f != NULL)
        return add_file(sc->l, path, 1, f, err);
    return scan_dir(sc, path, depth + 1, err);
}

/* The names in `dir`, sorted by bytes; *names owned by the caller. */
static enum pr_status
list_dir(const char *dir, char ***names, size_t *n, struct pr_error *err)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    size_t cap = 0;
    enum pr_status st = PR_OK;

    *names = NULL;
    *n = 0;
    if (d == NULL)
        return pr_error_set(err, PR_E_IO, "%s: cannot open folder: %s", dir,
                            strerror(errno));
    while (st == PR_OK && (de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (pr_grow((void **)names, &cap, *n + 1, sizeof(**names)) != PR_OK ||
            ((*names)[*n] = dup_n(de->d_name, strlen(de->d_name))) == NULL)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
        else
            (*n)++;
    }
    closedir(d);
    if (*n > 0)
        qsort(*names, *n, sizeof(**names), cmp_str);
    return st;
}

static enum pr_status
scan_dir(struct scan *sc, const char *dir, int depth, struct pr_error *err)
{
    char **names;
    size_t n, i;
    enum pr_status st;
    struct pr_buf path;

    if (depth > MAX_DEPTH)
        return add_skip(sc->l, dir, "folders nested too deep", err);
    st = list_dir(dir, &names, &n, err);
    pr_buf_init(&path, 0);
    for (i = 0; i < n && st == PR_OK; i++) {
        pr_buf_reset(&path);
        if (pr_buf_printf(&path, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/",
                          names[i]) != PR_OK)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
        else
            st = scan_entry(sc, path.data, names[i], depth, err);
    }
    for (i = 0; i < n; i++)
        free(names[i]);
    free(names);
    pr_buf_free(&path);
    return st;
}

/* A path given explicitly that is a file: content first, then the name;
 * an input that cannot be read twice (a pipe) is not sniffed and goes to
 * the first streaming format unless its name claims one. */
static enum pr_status
explicit_file(struct scan *sc, const char *path, const struct stat *st,
              struct pr_error *err)
{
    struct pr_probe p;
    const struct pr_format *f;
    enum pr_status code = PR_OK;
    char why[PATH_WHY];
    int regular = S_ISREG(st->st_mode);

    probe_init(&p, path, 0);
    if (regular && !probe_read(sc, &p, why, sizeof(why), &code))
        regular = -1; /* unreadable: the name decides, or we say why */
    f = pr_formats_pick(sc->tab, &p, PR_CLAIM_NAME, NULL);
    if (f == NULL && regular == 0)
        f = pr_formats_streaming(sc->tab);
    if (f != NULL)
        return add_file(sc->l, path, 0, f, err);
    if (regular < 0)
        return pr_error_set(err, code, "%s: %s", path, why);
    unclaimed(sc, &p, 1, why, sizeof(why)); /* the user's own file */
    return pr_error_set(err, PR_E_NOT_FORMAT, "%s: %s", path, why);
}

static enum pr_status
explicit_dir(struct scan *sc, const char *path, const struct stat *dst,
             struct pr_error *err)
{
    struct pr_probe p;
    const struct pr_format *f;
    size_t before = sc->l->n;
    enum pr_status st;
    char names[384];

    probe_init(&p, path, 1);
    f = pr_formats_pick(sc->tab, &p, PR_CLAIM_NAME, NULL);
    if (f != NULL)
        return add_file(sc->l, path, 0, f, err);
    sc->root = realpath(path, NULL);
    if (sc->root == NULL)
        return pr_error_set(err, errno == ENOMEM ? PR_E_NOMEM : PR_E_IO,
                            "%s: %s", path, strerror(errno));
    (void)reached(sc, path, dst, &st); /* a loop back to the top is a loop */
    if (st != PR_OK)
        return pr_error_set(err, st, "out of memory");
    st = scan_dir(sc, path, 0, err);
    if (st != PR_OK || sc->l->n > before)
        return st;
    pr_formats_names(sc->tab, names, sizeof(names));
    return pr_error_set(err, PR_E_IO,
                        "%s: no trace files in folder (none of its files is "
                        "in a format profreport reads: %s)",
                        path, names);
}

enum pr_status
pr_discover_with(const struct pr_format_table *tab, const char *path,
                 struct pr_input_list *out, struct pr_error *err)
{
    struct scan sc = {tab, out, NULL, NULL, 0, 0, NULL};
    struct stat st;
    enum pr_status rc;
    size_t i;

    if (stat(path, &st) != 0)
        return pr_error_set(err, PR_E_IO, "%s: %s", path, strerror(errno));
    sc.head = malloc(PR_PROBE_HEAD);
    if (sc.head == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (S_ISDIR(st.st_mode))
        rc = explicit_dir(&sc, path, &st, err);
    else
        rc = explicit_file(&sc, path, &st, err);
    free(sc.head);
    free(sc.root);
    for (i = 0; i < sc.n_seen; i++)
        free(sc.seen[i].path);
    free(sc.seen);
    return rc;
}

enum pr_status
pr_discover(const char *path, struct pr_input_list *out, struct pr_error *err)
{
    return pr_discover_with(pr_formats_builtin(), path, out, err);
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
    for (i = 0; i < l->n_skipped; i++) {
        free(l->skipped[i].path);
        free(l->skipped[i].why);
    }
    for (i = 0; i < l->n_kinds; i++)
        free(l->kinds[i].why);
    free(l->kinds);
    free(l->files);
    free(l->skipped);
    memset(l, 0, sizeof(*l));
}
