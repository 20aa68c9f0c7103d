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
#include <time.h>
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

/* ---- files a fatal signal removes or puts back
 *
 * A table the handler reads without locks, in chunks that are only ever
 * added (never moved or freed), so it grows with the outputs (--each-job
 * stages three per job) while a handler may be reading it.  A slot's
 * paths are written before its kind is set, and the kind cleared before
 * they are freed; slots are claimed and changed with the signals blocked.
 * The handler undoes what each slot says (unlink and rename are
 * async-signal-safe), restores the action it replaced and raises the
 * signal again, so the process ends as it would have (or the earlier
 * handler, such as record's, runs):
 *   SLOT_STAGE   a staging file: removed;
 *   SLOT_BACKUP  the earlier content of an output replaced during a
 *                commit (a hard link, or the file moved aside): put back
 *                over the output;
 *   SLOT_NEW     an output committed where there was no file: removed. */
enum { SLOT_FREE, SLOT_STAGE, SLOT_BACKUP, SLOT_NEW };

#define SLOTS_PER_CHUNK 32

struct slot {
    volatile sig_atomic_t kind;
    char *path; /* the file the slot is about */
    char *dest; /* SLOT_BACKUP: where it goes back to */
};

struct chunk {
    struct slot s[SLOTS_PER_CHUNK];
    struct chunk *volatile next;
};

static struct chunk slots_head;
static const int stage_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
#define N_STAGE_SIGS (sizeof(stage_sigs) / sizeof(stage_sigs[0]))
static struct sigaction stage_old[N_STAGE_SIGS];
static int stage_handled;

/* Undo one slot (in the handler, or on a failed commit); 0 on failure. */
static int
slot_undo(const struct slot *s)
{
    switch (s->kind) {
    case SLOT_STAGE:
    case SLOT_NEW:
        return unlink(s->path) == 0 || errno == ENOENT;
    case SLOT_BACKUP:
        return rename(s->path, s->dest) == 0;
    default:
        return 1;
    }
}

static void
on_fatal_signal(int sig)
{
    int e = errno;
    const struct chunk *c;
    size_t i;

    for (c = &slots_head; c != NULL; c = c->next)
        for (i = 0; i < SLOTS_PER_CHUNK; i++)
            (void)slot_undo(&c->s[i]);
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

/* Block the signals the table answers; *old receives the mask to put
 * back with stage_unmask. */
static void
stage_mask(sigset_t *old)
{
    sigset_t set;
    size_t i;

    sigemptyset(&set);
    for (i = 0; i < N_STAGE_SIGS; i++)
        sigaddset(&set, stage_sigs[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

static void
stage_unmask(const sigset_t *old)
{
    sigprocmask(SIG_SETMASK, old, NULL);
}

/* Enter `path` (and, for SLOT_BACKUP, `dest`) in a free slot, adding a
 * chunk when every slot is taken.  NULL when out of memory. */
static struct slot *
slot_claim(int kind, const char *path, const char *dest)
{
    char *p = strdup(path), *d = dest != NULL ? strdup(dest) : NULL;
    struct chunk *c, *last = NULL;
    struct slot *s = NULL;
    sigset_t old;
    size_t i;

    if (p == NULL || (dest != NULL && d == NULL)) {
        free(p);
        free(d);
        return NULL;
    }
    stage_handle_signals();
    stage_mask(&old);
    for (c = &slots_head; c != NULL && s == NULL; last = c, c = c->next)
        for (i = 0; i < SLOTS_PER_CHUNK && s == NULL; i++)
            if (c->s[i].kind == SLOT_FREE)
                s = &c->s[i];
    if (s == NULL && (c = calloc(1, sizeof(*c))) != NULL) {
        last->next = c; /* never freed: a handler may be walking it */
        s = &c->s[0];
    }
    if (s != NULL) {
        s->path = p;
        s->dest = d;
        s->kind = kind;
    }
    stage_unmask(&old);
    if (s == NULL) {
        free(p);
        free(d);
    }
    return s;
}

/* Forget a slot: its files no longer need undoing. */
static void
slot_release(struct slot *s)
{
    sigset_t old;
    char *p, *d;

    if (s == NULL)
        return;
    stage_mask(&old);
    s->kind = SLOT_FREE;
    p = s->path;
    d = s->dest;
    s->path = s->dest = NULL;
    stage_unmask(&old);
    free(p);
    free(d);
}

/* The slot of the staging file `tmp`, or NULL. */
static struct slot *
stage_find(const char *tmp)
{
    struct chunk *c;
    size_t i;

    for (c = &slots_head; tmp != NULL && c != NULL; c = c->next)
        for (i = 0; i < SLOTS_PER_CHUNK; i++)
            if (c->s[i].kind == SLOT_STAGE && strcmp(c->s[i].path, tmp) == 0)
                return &c->s[i];
    return NULL;
}

/* The staging file was renamed, written through or removed: the path no
 * longer needs removing. */
static void
stage_release(const char *tmp)
{
    slot_release(stage_find(tmp));
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
    const struct chunk *c;
    size_t i, n = 0;

    for (c = &slots_head; c != NULL; c = c->next)
        for (i = 0; i < SLOTS_PER_CHUNK; i++)
            n += c->s[i].kind == SLOT_STAGE;
    return n;
}

static const char *
temp_dir(void)
{
    const char *d = getenv("TMPDIR");

    return d != NULL && *d == '/' ? d : "/tmp";
}

/* mkstemp of `pattern` (owned by the caller on success), in the table
 * of staging files a fatal signal removes: the signals wait while the
 * file is created and entered, so none finds it outside the table. */
static enum pr_status
open_temp(char *pattern, const char *path, int *fd_out, struct pr_error *err)
{
    struct slot *slot = NULL;
    sigset_t old;
    int fd, e;

    stage_handle_signals();
    stage_mask(&old);
    fd = mkstemp(pattern);
    e = errno;
    if (fd >= 0 && (slot = slot_claim(SLOT_STAGE, pattern, NULL)) == NULL) {
        close(fd);
        unlink(pattern);
    }
    stage_unmask(&old);
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
    if (slot == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
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

/* Test hook (documented as one in the man page, nothing else): with
 * PROFREPORT_TEST_BEFORE_COMMIT=FILE, a commit creates FILE and waits
 * (at most a minute) until something removes it, so that a test can
 * change the destinations between the check and the commit (make one a
 * folder) as a race would. */
static void
test_hook_before_commit(void)
{
    const char *f = getenv("PROFREPORT_TEST_BEFORE_COMMIT");
    struct timespec ts = {0, 10 * 1000 * 1000};
    int fd, i;

    if (f == NULL || *f == '\0' ||
        (fd = open(f, O_WRONLY | O_CREAT | O_EXCL, 0644)) < 0)
        return;
    close(fd);
    for (i = 0; i < 6000 && access(f, F_OK) == 0; i++)
        nanosleep(&ts, NULL);
}

/* The earlier content of `dest` kept as `dest.XXXXXX` (a hard link, or,
 * on a file system without them, the file moved aside) in a SLOT_BACKUP
 * slot, so that it can be put back.  *out = NULL when dest is not there.
 * Called with the signals blocked. */
static enum pr_status
keep_backup(const char *path, const char *dest, struct slot **out,
            struct pr_error *err)
{
    size_t n = strlen(dest) + 8;
    char *bak = malloc(n);
    struct stat sb;
    int fd, tries, e = 0, done = 0, moved = 0;

    *out = NULL;
    if (lstat(dest, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        free(bak);
        return PR_OK; /* nothing to keep (a folder fails at the rename) */
    }
    if (bak == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (tries = 0; !done && tries < 8; tries++) {
        /* a name of our own, then the link in its place */
        snprintf(bak, n, "%s.XXXXXX", dest);
        if ((fd = mkstemp(bak)) < 0) {
            e = errno;
            break;
        }
        close(fd);
        unlink(bak);
        if (link(dest, bak) == 0)
            done = 1;
        else if ((e = errno) != EEXIST && rename(dest, bak) == 0)
            done = moved = 1;
        else if (e != EEXIST)
            e = errno;
    }
    if (!done) {
        free(bak);
        return pr_error_set(err, PR_E_IO,
                            "%s: cannot replace it (no copy of the earlier "
                            "file could be kept): %s",
                            path, strerror(e != 0 ? e : EEXIST));
    }
    *out = slot_claim(SLOT_BACKUP, bak, dest);
    if (*out == NULL) {
        if (moved)
            (void)rename(bak, dest);
        else
            unlink(bak);
        free(bak);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    free(bak);
    return PR_OK;
}

/* Rename output x's staging file over its destination (a symlink's
 * target), keeping a way back in x->undo: the earlier file's backup, or
 * the new file to remove.  Called with the signals blocked. */
static enum pr_status
commit_rename(struct pr_output *x, struct pr_error *err)
{
    char *dest = final_target(x->path);
    struct slot *back = NULL;
    enum pr_status st;
    int e;

    if (dest == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    st = keep_backup(x->path, dest, &back, err);
    if (st == PR_OK && back == NULL &&
        (back = slot_claim(SLOT_NEW, dest, NULL)) == NULL)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st != PR_OK) {
        free(dest);
        return st;
    }
    if (rename(x->tmp, dest) != 0) {
        e = errno;
        if (back->kind == SLOT_BACKUP)
            (void)slot_undo(back); /* same file again, or moved back */
        if (back->kind == SLOT_BACKUP)
            unlink(back->path); /* a hard link rename left in place */
        slot_release(back);
        free(dest);
        return pr_error_set(err, PR_E_IO, "%s: cannot rename into place: %s",
                            x->path,
                            e == EISDIR ? "it is a folder now" : strerror(e));
    }
    free(dest);
    stage_release(x->tmp);
    free(x->tmp);
    x->tmp = NULL;
    x->undo = back;
    return PR_OK;
}

/* Undo the committed renames, the last first; a file that cannot be put
 * back is named in err's message with where its content is. */
static void
roll_back(struct pr_outputs *o, struct pr_error *err)
{
    size_t i = o->n;
    sigset_t old;

    stage_mask(&old);
    while (i-- > 0) {
        struct slot *s = o->v[i].undo;

        if (s == NULL)
            continue;
        if (!slot_undo(s) && s->kind == SLOT_BACKUP) {
            char said[sizeof(err->msg)];

            memcpy(said, err->msg, sizeof(said));
            pr_error_set(err, err->code,
                         "%s; and %s could not be put back (%s): its "
                         "earlier content is in %s",
                         said, o->v[i].path, strerror(errno), s->path);
        }
        slot_release(s);
        o->v[i].undo = NULL;
    }
    stage_unmask(&old);
}

/* The commit is whole: the backups go. */
static void
drop_backups(struct pr_outputs *o)
{
    size_t i;
    sigset_t old;

    stage_mask(&old);
    for (i = 0; i < o->n; i++) {
        struct slot *s = o->v[i].undo;

        if (s != NULL && s->kind == SLOT_BACKUP)
            unlink(s->path);
        slot_release(s);
        o->v[i].undo = NULL;
    }
    stage_unmask(&old);
}

enum pr_status
pr_outputs_commit(struct pr_outputs *o, struct pr_error *err)
{
    enum pr_status st = PR_OK;
    sigset_t old;
    size_t i;

    test_hook_before_commit();
    /* the renames first, with the signals held (each is quick): a
     * rename that fails (the destination became a folder, its folder
     * read-only since the check) puts the earlier ones back, so no file
     * changed; then the writes through (standard output, a device, a
     * FIFO), which can fail half-way (a full disk, a closed pipe) and
     * take time (a slow reader): the renames are put back when one
     * fails, or by the signal handler should the process be ended */
    stage_mask(&old);
    for (i = 0; i < o->n && st == PR_OK; i++)
        if (o->v[i].tmp != NULL && !o->v[i].through)
            st = commit_rename(&o->v[i], err);
    stage_unmask(&old);
    for (i = 0; i < o->n && st == PR_OK; i++)
        if (o->v[i].tmp != NULL && o->v[i].through) {
            st = write_through(o->v[i].tmp, o->v[i].path, err);
            free(o->v[i].tmp);
            o->v[i].tmp = NULL;
        }
    if (st != PR_OK)
        roll_back(o, err);
    else
        drop_backups(o);
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
