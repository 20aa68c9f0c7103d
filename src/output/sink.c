/* sink.c - atomic output (sink.h): staging files beside the destination
 * and renamed into place, or in $TMPDIR and written through destinations
 * that must not be replaced; sets of outputs committed together. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profreport/buf.h"
#include "profreport/sink.h"

#define COPY_CHUNK 65536

static int
is_stdout(const char *path)
{
    return strcmp(path, "-") == 0;
}

/* 1 when the destination must be written through, not replaced: standard
 * output, or an existing entry that is not a regular file (a device, a
 * FIFO, a socket, a symlink: replacing a symlink would cut the link). */
static int
writes_through(const char *path)
{
    struct stat sb;

    if (is_stdout(path))
        return 1;
    return lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode);
}

static const char *
temp_dir(void)
{
    const char *d = getenv("TMPDIR");

    return d != NULL && *d == '/' ? d : "/tmp";
}

/* mkstemp of `pattern` (owned by the caller on success). */
static enum pr_status
open_temp(char *pattern, const char *path, int *fd_out, struct pr_error *err)
{
    int fd = mkstemp(pattern);

    if (fd < 0)
        return pr_error_set(err, PR_E_IO, "%s: cannot create: %s",
                            is_stdout(path) ? "standard output" : path,
                            strerror(errno));
    /* mkstemp creates 0600; reports are ordinary files */
    (void)fchmod(fd, 0644);
    *fd_out = fd;
    return PR_OK;
}

static enum pr_status
make_temp(const char *path, char **tmp_out, int *fd_out, struct pr_error *err)
{
    int through = writes_through(path);
    size_t n = (through ? strlen(temp_dir()) : strlen(path)) + 32;
    char *tmp = malloc(n);
    enum pr_status st;

    if (tmp == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (through)
        snprintf(tmp, n, "%s/profreport.XXXXXX", temp_dir());
    else
        snprintf(tmp, n, "%s.XXXXXX", path);
    st = open_temp(tmp, path, fd_out, err);
    if (st != PR_OK) {
        free(tmp);
        return st;
    }
    *tmp_out = tmp;
    return PR_OK;
}

static enum pr_status
write_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return PR_E_IO;
        }
        p += w;
        len -= (size_t)w;
    }
    return PR_OK;
}

enum pr_status
pr_outputs_fill(const char *tmp, const char *path, const void *data, size_t len,
                struct pr_error *err)
{
    int fd = open(tmp, O_WRONLY | O_TRUNC);
    enum pr_status st;
    int e;

    if (fd < 0)
        return pr_error_set(err, PR_E_IO, "%s: cannot write: %s", path,
                            strerror(errno));
    st = write_all(fd, data, len);
    e = errno;
    if (close(fd) != 0 && st == PR_OK) {
        st = PR_E_IO;
        e = errno;
    }
    if (st != PR_OK)
        return pr_error_set(err, PR_E_IO, "%s: write failed: %s",
                            is_stdout(path) ? "standard output" : path,
                            strerror(e));
    return PR_OK;
}

/* cJSON_Print(item) with `tabs` (1 or 2) more tabs after each newline:
 * the item as cJSON prints it that many levels deeper (only formatting
 * puts raw newlines in the text; strings escape theirs).  0 on failure. */
static int
put_printed(FILE *f, const cJSON *item, size_t tabs)
{
    char *s = cJSON_Print(item);
    const char *p = s, *nl;
    int ok = s != NULL;

    while (ok && (nl = strchr(p, '\n')) != NULL) {
        ok = fwrite(p, 1, (size_t)(nl + 1 - p), f) == (size_t)(nl + 1 - p) &&
             fwrite("\t\t", 1, tabs, f) == tabs;
        p = nl + 1;
    }
    ok = ok && fputs(p, f) != EOF;
    cJSON_free(s);
    return ok;
}

/* A member's key as cJSON escapes it, with the separator after it. */
static int
put_key(FILE *f, const char *key)
{
    cJSON *k = cJSON_CreateString(key);
    char *s = k != NULL ? cJSON_PrintUnformatted(k) : NULL;
    int ok = s != NULL && fprintf(f, "\t%s:\t", s) > 0;

    cJSON_free(s);
    cJSON_Delete(k);
    return ok;
}

/* Where put_doc takes the elements of the top-level arrays from. */
struct elems {
    pr_json_elem_fn fn;
    void *ctx;
    struct pr_error *err;
    enum pr_status st; /* fn's failure, else PR_OK */
};

/* One element of a top-level array, as fn says. */
static int
put_elem(FILE *f, const cJSON *el, struct elems *e)
{
    const cJSON *use = NULL;

    if (e->fn != NULL && (e->st = e->fn(e->ctx, el, &use, e->err)) != PR_OK)
        return 0;
    return put_printed(f, use != NULL ? use : el, 2);
}

/* cJSON_Print(doc) for an object, one member (one element of an array
 * member) in memory at a time. */
static int
put_doc(FILE *f, const cJSON *doc, struct elems *e)
{
    const cJSON *m, *el;
    int ok;

    if (!cJSON_IsObject(doc) || doc->child == NULL)
        return put_printed(f, doc, 0);
    ok = fputs("{\n", f) != EOF;
    for (m = doc->child; ok && m != NULL; m = m->next) {
        ok = m->string != NULL && put_key(f, m->string);
        if (ok && cJSON_IsArray(m)) {
            ok = fputc('[', f) != EOF;
            for (el = m->child; ok && el != NULL; el = el->next)
                ok = put_elem(f, el, e) &&
                     (el->next == NULL || fputs(", ", f) != EOF);
            ok = ok && fputc(']', f) != EOF;
        } else if (ok) {
            ok = put_printed(f, m, 1);
        }
        ok = ok && fputs(m->next != NULL ? ",\n" : "\n", f) != EOF;
    }
    return ok && fputc('}', f) != EOF;
}

enum pr_status
pr_outputs_fill_json(const char *tmp, const char *path, const cJSON *doc,
                     int newline, struct pr_error *err)
{
    return pr_outputs_fill_json_with(tmp, path, doc, newline, NULL, NULL, err);
}

enum pr_status
pr_outputs_fill_json_with(const char *tmp, const char *path, const cJSON *doc,
                          int newline, pr_json_elem_fn fn, void *ctx,
                          struct pr_error *err)
{
    FILE *f = fopen(tmp, "w");
    struct elems e = {fn, ctx, err, PR_OK};
    int ok, io, en;

    if (f == NULL)
        return pr_error_set(err, PR_E_IO, "%s: cannot write: %s", path,
                            strerror(errno));
    ok = put_doc(f, doc, &e) && (!newline || fputc('\n', f) != EOF);
    io = ferror(f);
    en = errno;
    if (fclose(f) != 0 && !io) {
        io = 1;
        en = errno;
    }
    if (e.st != PR_OK) /* fn's own message */
        return e.st;
    if (ok && !io)
        return PR_OK;
    if (!io) /* a member could not be printed */
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return pr_error_set(err, PR_E_IO, "%s: write failed: %s",
                        is_stdout(path) ? "standard output" : path,
                        strerror(en));
}

/* Copy the bytes of `from` to the open descriptor `to`. */
static enum pr_status
copy_fd(int from, int to)
{
    char buf[COPY_CHUNK];

    for (;;) {
        ssize_t r = read(from, buf, sizeof(buf));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return PR_E_IO;
        if (r == 0)
            return PR_OK;
        if (write_all(to, buf, (size_t)r) != PR_OK)
            return PR_E_IO;
    }
}

/* Write the staged bytes through the destination (stdout, a device, a
 * FIFO, a symlink's target), then remove the staging file. */
static enum pr_status
write_through(const char *tmp, const char *path, struct pr_error *err)
{
    int in = open(tmp, O_RDONLY), out, e = 0;
    enum pr_status st = PR_OK;

    if (in < 0)
        return pr_error_set(err, PR_E_IO, "%s: staged output lost: %s", path,
                            strerror(errno));
    out = is_stdout(path) ? STDOUT_FILENO
                          : open(path, O_WRONLY | O_TRUNC | O_CREAT, 0644);
    if (out < 0) {
        e = errno;
        st = PR_E_IO;
    } else if (copy_fd(in, out) != PR_OK) {
        e = errno;
        st = PR_E_IO;
    }
    if (out >= 0 && out != STDOUT_FILENO && close(out) != 0 && st == PR_OK) {
        e = errno;
        st = PR_E_IO;
    }
    close(in);
    unlink(tmp);
    if (st != PR_OK)
        return pr_error_set(err, PR_E_IO, "%s: write failed: %s",
                            is_stdout(path) ? "standard output" : path,
                            strerror(e));
    return PR_OK;
}

void
pr_outputs_init(struct pr_outputs *o)
{
    memset(o, 0, sizeof(*o));
}

enum pr_status
pr_outputs_stage(struct pr_outputs *o, const char *path, const char **tmp_out,
                 struct pr_error *err)
{
    struct pr_output *x;
    int fd;
    enum pr_status st;

    if (pr_grow((void **)&o->v, &o->cap, o->n + 1, sizeof(*o->v)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    x = &o->v[o->n];
    memset(x, 0, sizeof(*x));
    x->path = path;
    x->through = writes_through(path);
    st = make_temp(path, &x->tmp, &fd, err);
    if (st != PR_OK)
        return st;
    close(fd);
    o->n++;
    if (tmp_out != NULL)
        *tmp_out = x->tmp;
    return PR_OK;
}

enum pr_status
pr_outputs_write(struct pr_outputs *o, const char *path, const void *data,
                 size_t len, struct pr_error *err)
{
    const char *tmp;
    enum pr_status st = pr_outputs_stage(o, path, &tmp, err);

    if (st == PR_OK)
        st = pr_outputs_fill(tmp, path, data, len, err);
    return st;
}

/* Commit output x: rename, or write through. */
static enum pr_status
commit_one(struct pr_output *x, struct pr_error *err)
{
    enum pr_status st;

    if (x->through)
        st = write_through(x->tmp, x->path, err);
    else
        st = pr_sink_commit(x->tmp, x->path, err);
    free(x->tmp);
    x->tmp = NULL;
    return st;
}

enum pr_status
pr_outputs_commit(struct pr_outputs *o, struct pr_error *err)
{
    enum pr_status st = PR_OK;
    size_t i;
    int pass;

    /* renames cannot fail half-way through a file; do them first */
    for (pass = 0; pass < 2; pass++)
        for (i = 0; i < o->n && st == PR_OK; i++)
            if (o->v[i].tmp != NULL && o->v[i].through == pass)
                st = commit_one(&o->v[i], err);
    return st;
}

void
pr_outputs_free(struct pr_outputs *o)
{
    size_t i;

    if (o == NULL)
        return;
    for (i = 0; i < o->n; i++) {
        if (o->v[i].tmp != NULL)
            unlink(o->v[i].tmp);
        free(o->v[i].tmp);
    }
    free(o->v);
    pr_outputs_init(o);
}

/* Where path would write: the file it names as (device, inode) when it
 * exists (through symlinks), else the real path of its folder and its
 * name (a dangling link: its target's, one level).  0 when that cannot be
 * told (a folder that is not there: the write fails anyway). */
struct place {
    int exists;
    dev_t dev;
    ino_t ino;
    char where[2 * PATH_MAX];
};

static int
place_of(const char *path, struct place *p, int links)
{
    struct stat sb;
    char buf[PATH_MAX], *real;
    const char *base = strrchr(path, '/');
    ssize_t k;

    memset(p, 0, sizeof(*p));
    if (stat(path, &sb) == 0) {
        p->exists = 1;
        p->dev = sb.st_dev;
        p->ino = sb.st_ino;
        return 1;
    }
    if (links > 0 && lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode) &&
        (k = readlink(path, buf, sizeof(buf) - 1)) > 0) {
        char target[2 * PATH_MAX];

        buf[k] = '\0';
        snprintf(target, sizeof(target), "%.*s%s",
                 buf[0] == '/' || base == NULL ? 0 : (int)(base - path + 1),
                 path, buf);
        return place_of(target, p, links - 1);
    }
    snprintf(buf, sizeof(buf), "%.*s",
             base == NULL   ? 1
             : base == path ? 1
                            : (int)(base - path),
             base == NULL ? "." : path);
    real = realpath(buf, NULL);
    if (real == NULL)
        return 0;
    snprintf(p->where, sizeof(p->where), "%s/%s", real,
             base == NULL ? path : base + 1);
    free(real);
    return 1;
}

static int
same_place(const char *a, const char *b)
{
    struct place pa, pb;

    if (strcmp(a, b) == 0)
        return 1;
    if (!place_of(a, &pa, 8) || !place_of(b, &pb, 8) || pa.exists != pb.exists)
        return 0;
    return pa.exists ? pa.dev == pb.dev && pa.ino == pb.ino
                     : strcmp(pa.where, pb.where) == 0;
}

enum pr_status
pr_outputs_distinct(const char *const *paths, const char *const *names,
                    size_t n, const char *const *inputs, size_t n_inputs,
                    struct pr_error *err)
{
    size_t i, j;

    for (i = 0; i < n; i++) {
        if (paths[i] == NULL)
            continue;
        for (j = i + 1; j < n; j++) {
            if (paths[j] == NULL)
                continue;
            if (is_stdout(paths[i]) && is_stdout(paths[j]))
                return pr_error_set(err, PR_E_USAGE,
                                    "%s and %s both write to standard output "
                                    "('-'): give one of them a file",
                                    names[i], names[j]);
            if (is_stdout(paths[i]) || is_stdout(paths[j]) ||
                !same_place(paths[i], paths[j]))
                continue;
            if (strcmp(paths[i], paths[j]) == 0)
                return pr_error_set(err, PR_E_USAGE,
                                    "%s and %s both write to '%s'", names[i],
                                    names[j], paths[i]);
            return pr_error_set(err, PR_E_USAGE,
                                "%s '%s' and %s '%s' are the same file",
                                names[i], paths[i], names[j], paths[j]);
        }
        for (j = 0; j < n_inputs && !is_stdout(paths[i]); j++)
            if (inputs[j] != NULL && same_place(paths[i], inputs[j]))
                return pr_error_set(err, PR_E_USAGE,
                                    "%s '%s' would overwrite the input '%s'",
                                    names[i], paths[i], inputs[j]);
    }
    return PR_OK;
}

enum pr_status
pr_sink_write_file(const char *path, const void *data, size_t len,
                   struct pr_error *err)
{
    struct pr_outputs o;
    enum pr_status st;

    pr_outputs_init(&o);
    st = pr_outputs_write(&o, path, data, len, err);
    if (st == PR_OK)
        st = pr_outputs_commit(&o, err);
    pr_outputs_free(&o);
    return st;
}

enum pr_status
pr_sink_temp_path(const char *path, char **tmp_out, struct pr_error *err)
{
    int fd;
    enum pr_status st = make_temp(path, tmp_out, &fd, err);

    if (st == PR_OK)
        close(fd);
    return st;
}

enum pr_status
pr_sink_commit(const char *tmp, const char *path, struct pr_error *err)
{
    if (writes_through(path))
        return write_through(tmp, path, err);
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return pr_error_set(err, PR_E_IO, "%s: cannot rename into place: %s",
                            path, strerror(e));
    }
    return PR_OK;
}

void
pr_sink_abort(const char *tmp)
{
    if (tmp != NULL)
        unlink(tmp);
}
