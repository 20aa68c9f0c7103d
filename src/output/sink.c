/* sink.c - atomic output (sink.h): staging files beside the destination
 * and renamed into place, or in $TMPDIR and written through destinations
 * that must not be replaced; sets of outputs committed together. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
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
 * FIFO, a socket; a symlink counts as what it leads to: a link to a
 * regular file, or a dangling one, has its target replaced, never the
 * link itself). */
static int
writes_through(const char *path)
{
    struct stat sb;

    if (is_stdout(path))
        return 1;
    return stat(path, &sb) == 0 && !S_ISREG(sb.st_mode);
}

/* The file a write to `path` lands in: path itself, or, for a symlink
 * (a chain of them), its last target, which need not exist yet.  Owned;
 * NULL when out of memory. */
static char *
final_target(const char *path)
{
    char *p = strdup(path), link[PATH_MAX];
    struct stat sb;
    int hops;

    for (hops = 0; p != NULL && hops < 40; hops++) {
        ssize_t k;
        const char *base;
        size_t n;
        char *next;

        if (lstat(p, &sb) != 0 || !S_ISLNK(sb.st_mode) ||
            (k = readlink(p, link, sizeof(link) - 1)) <= 0)
            break;
        link[k] = '\0';
        base = strrchr(p, '/');
        n = link[0] == '/' || base == NULL ? 0 : (size_t)(base - p + 1);
        next = malloc(n + (size_t)k + 1);
        if (next != NULL) {
            memcpy(next, p, n);
            memcpy(next + n, link, (size_t)k + 1);
        }
        free(p);
        p = next;
    }
    return p;
}

/* ---- staging files removed on a fatal signal
 *
 * A fixed table the handler reads without locks: a slot's path is written
 * before its flag is set, and the flag cleared before the path is reused.
 * The handler removes every staging file in it (unlink is
 * async-signal-safe), restores the action it replaced and raises the
 * signal again, so the process ends as it would have (or the earlier
 * handler, such as record's, runs). */
#define STAGE_SLOTS 16
#define STAGE_PATH (PATH_MAX + 64)

static char stage_path[STAGE_SLOTS][STAGE_PATH];
static volatile sig_atomic_t stage_used[STAGE_SLOTS];
static const int stage_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
#define N_STAGE_SIGS (sizeof(stage_sigs) / sizeof(stage_sigs[0]))
static struct sigaction stage_old[N_STAGE_SIGS];
static int stage_handled;

static void
on_fatal_signal(int sig)
{
    int e = errno;
    size_t i;

    for (i = 0; i < STAGE_SLOTS; i++)
        if (stage_used[i])
            unlink(stage_path[i]);
    for (i = 0; i < N_STAGE_SIGS; i++)
        if (stage_sigs[i] == sig)
            sigaction(sig, &stage_old[i], NULL);
    raise(sig); /* pending until this handler returns */
    errno = e;
}

/* Install the handler once; a signal the process ignores stays ignored
 * (a background job's SIGINT, a caller's SIGPIPE). */
static void
stage_handle_signals(void)
{
    struct sigaction sa;
    size_t i;

    if (stage_handled)
        return;
    stage_handled = 1;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_fatal_signal;
    sigfillset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (i = 0; i < N_STAGE_SIGS; i++) {
        if (sigaction(stage_sigs[i], NULL, &stage_old[i]) != 0 ||
            stage_old[i].sa_handler == SIG_IGN)
            continue;
        sigaction(stage_sigs[i], &sa, NULL);
    }
}

/* A slot for `tmp` (before the file is created), or -1 when none is free
 * or the path does not fit. */
static int
stage_claim(const char *tmp)
{
    size_t n = strlen(tmp);
    int i;

    if (n >= STAGE_PATH)
        return -1;
    for (i = 0; i < STAGE_SLOTS; i++)
        if (!stage_used[i]) {
            memcpy(stage_path[i], tmp, n + 1);
            stage_used[i] = 1;
            return i;
        }
    return -1;
}

/* The slot of a staging file that was renamed, written through or
 * removed; the path no longer needs removing. */
static void
stage_release(const char *tmp)
{
    int i;

    if (tmp == NULL)
        return;
    for (i = 0; i < STAGE_SLOTS; i++)
        if (stage_used[i] && strcmp(stage_path[i], tmp) == 0) {
            stage_used[i] = 0;
            return;
        }
}

/* Remove a staging file and forget it. */
static void
stage_remove(const char *tmp)
{
    if (tmp == NULL)
        return;
    unlink(tmp);
    stage_release(tmp);
}

size_t
pr_sink_n_staged(void)
{
    size_t i, n = 0;

    for (i = 0; i < STAGE_SLOTS; i++)
        n += stage_used[i] != 0;
    return n;
}

static const char *
temp_dir(void)
{
    const char *d = getenv("TMPDIR");

    return d != NULL && *d == '/' ? d : "/tmp";
}

/* Block (how = SIG_BLOCK) or unblock the signals the table answers. */
static void
stage_mask(int how)
{
    sigset_t set;
    size_t i;

    sigemptyset(&set);
    for (i = 0; i < N_STAGE_SIGS; i++)
        sigaddset(&set, stage_sigs[i]);
    sigprocmask(how, &set, NULL);
}

/* mkstemp of `pattern` (owned by the caller on success), in the table
 * of staging files a fatal signal removes: the signals wait while the
 * file is created and entered, so none finds it outside the table. */
static enum pr_status
open_temp(char *pattern, const char *path, int *fd_out, struct pr_error *err)
{
    int fd, e, slot = -1;

    stage_handle_signals();
    stage_mask(SIG_BLOCK);
    fd = mkstemp(pattern);
    e = errno;
    if (fd >= 0 && (slot = stage_claim(pattern)) < 0) {
        close(fd);
        unlink(pattern);
    }
    stage_mask(SIG_UNBLOCK);
    if (fd < 0 && strncmp(pattern, temp_dir(), strlen(temp_dir())) == 0 &&
        writes_through(path))
        return pr_error_set(err, PR_E_IO,
                            "%s: cannot create its staging file in %s "
                            "($TMPDIR): %s",
                            is_stdout(path) ? "standard output" : path,
                            temp_dir(), strerror(e));
    if (fd < 0)
        return pr_error_set(err, PR_E_IO, "%s: cannot create a file there: %s",
                            path, strerror(e));
    if (slot < 0)
        return pr_error_set(err, PR_E_IO,
                            "%s: cannot create a staging file: too many "
                            "outputs at once",
                            is_stdout(path) ? "standard output" : path);
    /* mkstemp creates 0600; reports are ordinary files */
    (void)fchmod(fd, 0644);
    *fd_out = fd;
    return PR_OK;
}

/* A staging file for `path`: beside the file a write lands in (a
 * symlink's target), or in $TMPDIR for a destination written through. */
static enum pr_status
make_temp(const char *path, char **tmp_out, int *fd_out, struct pr_error *err)
{
    int through = writes_through(path);
    char *dest = through ? NULL : final_target(path);
    size_t n = (through ? strlen(temp_dir()) : dest ? strlen(dest) : 0) + 32;
    char *tmp = malloc(n);
    enum pr_status st;

    if (tmp == NULL || (!through && dest == NULL)) {
        free(tmp);
        free(dest);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    if (through)
        snprintf(tmp, n, "%s/profreport.XXXXXX", temp_dir());
    else
        snprintf(tmp, n, "%s.XXXXXX", dest);
    free(dest);
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
    stage_remove(tmp);
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

    /* a write through (standard output, a device, a FIFO) can fail
     * half-way (a full disk, a closed pipe): do those first, so that when
     * one fails no file has been replaced yet; renames in a folder the
     * staging file was created in do not fail on their own */
    for (pass = 1; pass >= 0; pass--)
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
        stage_remove(o->v[i].tmp);
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
pr_outputs_writable(const char *const *paths, const char *const *names,
                    size_t n, struct pr_error *err)
{
    size_t i;

    for (i = 0; i < n; i++) {
        struct pr_error e;
        struct stat sb;
        char *dest, *tmp = NULL;
        int fd, there;

        if (paths[i] == NULL)
            continue;
        dest = is_stdout(paths[i]) ? NULL : final_target(paths[i]);
        if (!is_stdout(paths[i]) && dest == NULL)
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
        there = dest != NULL && stat(dest, &sb) == 0;
        free(dest);
        if (there && S_ISDIR(sb.st_mode))
            return pr_error_set(err, PR_E_IO,
                                "%s '%s' is a folder: give a file name",
                                names[i], paths[i]);
        if (there && !S_ISREG(sb.st_mode) && access(paths[i], W_OK) != 0)
            return pr_error_set(err, PR_E_IO, "%s '%s': cannot write: %s",
                                names[i], paths[i], strerror(errno));
        /* a file beside it (or in $TMPDIR for one written through) */
        pr_error_clear(&e);
        if (make_temp(paths[i], &tmp, &fd, &e) != PR_OK)
            return pr_error_set(err, e.code, "%s %s", names[i], e.msg);
        close(fd);
        stage_remove(tmp);
        free(tmp);
    }
    return PR_OK;
}

enum pr_status
pr_outputs_check(const char *const *paths, const char *const *names, size_t n,
                 const char *const *inputs, size_t n_inputs,
                 struct pr_error *err)
{
    enum pr_status st =
        pr_outputs_distinct(paths, names, n, inputs, n_inputs, err);

    return st != PR_OK ? st : pr_outputs_writable(paths, names, n, err);
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
    char *dest;
    int e;

    if (writes_through(path))
        return write_through(tmp, path, err);
    /* a symlink's target is replaced, and the link stays */
    dest = final_target(path);
    if (dest == NULL) {
        stage_remove(tmp);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    e = rename(tmp, dest) != 0 ? errno : 0;
    free(dest);
    if (e != 0) {
        stage_remove(tmp);
        return pr_error_set(err, PR_E_IO, "%s: cannot rename into place: %s",
                            path, strerror(e));
    }
    stage_release(tmp);
    return PR_OK;
}

void
pr_sink_abort(const char *tmp)
{
    stage_remove(tmp);
}
