/* sqlite_vfs.c - how profreport's SQLite connections see a database file:
 * read-only, and with the committed pages of its write-ahead log laid over
 * the file's own, the way SQLite would read them, but without SQLite's
 * WAL machinery.  That machinery needs a "-shm" file beside the database
 * (it creates one wherever it can: litter in the user's run folder) and
 * write access to recover the log; read through this layer, a database
 * with a "-wal" reads whole, from a read-only folder or through a symlink,
 * and nothing is ever created beside it.  Every other file SQLite opens
 * (its own temporary files for sorting) goes to the default VFS. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "internal.h"

/* SQLite's own heap, all connections together: what reading a database
 * needs is its page cache, a row and a sort's run (tens of MiB); a file
 * that makes SQLite build more than this is not a trace. */
#define HEAP_LIMIT ((sqlite3_int64)256 << 20)
#define WAL_HEADER 32
#define FRAME_HEADER 24
#define WAL_MAGIC 0x377f0682u /* | 1: big-endian checksums */
#define WAL_VERSION 3007000u

/* The latest committed copy of one page in the log. */
struct wal_page {
    uint32_t pgno;
    uint32_t frame; /* 0-based frame index */
};

struct ro_file {
    sqlite3_file base;
    int wal_fd;             /* -1 without a log to overlay */
    uint32_t page_size;     /* of the log */
    struct wal_page *pages; /* owned, sorted by pgno; n_pages */
    size_t n_pages;
    sqlite3_int64 size; /* the database's size as of the last commit */
    sqlite3_file *real; /* the file itself, opened by the default VFS */
};

/* SQLite keeps a pointer to its registered VFSes for the life of the
 * process: this one is filled once, from the default VFS, by ro_init. */
static sqlite3_vfs ro_vfs;
static pthread_once_t ro_once = PTHREAD_ONCE_INIT;
static int ro_registered;

static uint32_t
get32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           p[3];
}

/* SQLite's WAL checksum over n bytes (a multiple of 8), words read in the
 * log's byte order, continuing from s[0..1]. */
static void
wal_sum(int big, const unsigned char *p, size_t n, uint32_t s[2])
{
    size_t i;

    for (i = 0; i + 8 <= n; i += 8) {
        uint32_t a, b;

        if (big) {
            a = get32(p + i);
            b = get32(p + i + 4);
        } else {
            a = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 |
                (uint32_t)p[i + 2] << 16 | (uint32_t)p[i + 3] << 24;
            b = (uint32_t)p[i + 4] | (uint32_t)p[i + 5] << 8 |
                (uint32_t)p[i + 6] << 16 | (uint32_t)p[i + 7] << 24;
        }
        s[0] += a + s[1];
        s[1] += b + s[0];
    }
}

static int
full_read(int fd, void *buf, size_t n, off_t off)
{
    unsigned char *p = buf;

    while (n > 0) {
        ssize_t got = pread(fd, p, n, off);

        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return 0;
        p += got;
        n -= (size_t)got;
        off += got;
    }
    return 1;
}

static int
cmp_page(const void *a, const void *b)
{
    const struct wal_page *x = a, *y = b;

    if (x->pgno != y->pgno)
        return x->pgno < y->pgno ? -1 : 1;
    return x->frame < y->frame ? -1 : x->frame > y->frame;
}

/* Keep the last frame of each page (the array is sorted by page, then
 * frame). */
static void
keep_latest(struct ro_file *f)
{
    size_t i, n = 0;

    for (i = 0; i < f->n_pages; i++) {
        if (n > 0 && f->pages[n - 1].pgno == f->pages[i].pgno)
            n--;
        f->pages[n++] = f->pages[i];
    }
    f->n_pages = n;
}

/* Read the log's header; 0 when it is not a valid one (SQLite then
 * ignores the log too). */
static int
wal_header(int fd, uint32_t *page_size, int *big, uint32_t salt[2],
           uint32_t sum[2])
{
    unsigned char h[WAL_HEADER];
    uint32_t magic, ps;

    if (!full_read(fd, h, sizeof(h), 0))
        return 0;
    magic = get32(h);
    ps = get32(h + 8);
    if ((magic & ~1u) != WAL_MAGIC || get32(h + 4) != WAL_VERSION || ps < 512 ||
        ps > 65536 || (ps & (ps - 1)) != 0)
        return 0;
    *big = (int)(magic & 1);
    sum[0] = sum[1] = 0;
    wal_sum(*big, h, 24, sum);
    if (sum[0] != get32(h + 24) || sum[1] != get32(h + 28))
        return 0;
    salt[0] = get32(h + 16);
    salt[1] = get32(h + 20);
    *page_size = ps;
    return 1;
}

/* Walk the log's frames as SQLite's recovery does: each must carry the
 * header's salts and a checksum that continues the chain; the log ends at
 * the first that does not.  Only frames up to the last commit count.
 * SQLITE_NOMEM, else SQLITE_OK (a log without a valid commit adds
 * nothing). */
static int
wal_scan(struct ro_file *f, off_t wal_bytes)
{
    uint32_t salt[2], sum[2], ps, frame, committed = 0;
    unsigned char *buf;
    size_t cap = 0, n_committed = 0;
    int big;

    if (!wal_header(f->wal_fd, &ps, &big, salt, sum))
        return SQLITE_OK;
    buf = malloc(FRAME_HEADER + (size_t)ps);
    if (buf == NULL)
        return SQLITE_NOMEM;
    for (frame = 0;
         WAL_HEADER + ((off_t)frame + 1) * (FRAME_HEADER + (off_t)ps) <=
         wal_bytes;
         frame++) {
        off_t at = WAL_HEADER + (off_t)frame * (FRAME_HEADER + (off_t)ps);
        uint32_t pgno, commit;

        if (frame == UINT32_MAX ||
            !full_read(f->wal_fd, buf, FRAME_HEADER + (size_t)ps, at))
            break;
        pgno = get32(buf);
        commit = get32(buf + 4);
        if (pgno == 0 || get32(buf + 8) != salt[0] ||
            get32(buf + 12) != salt[1])
            break;
        wal_sum(big, buf, 8, sum);
        wal_sum(big, buf + FRAME_HEADER, ps, sum);
        if (sum[0] != get32(buf + 16) || sum[1] != get32(buf + 20))
            break;
        if (pr_grow((void **)&f->pages, &cap, f->n_pages + 1,
                    sizeof(*f->pages)) != PR_OK) {
            free(buf);
            return SQLITE_NOMEM;
        }
        f->pages[f->n_pages].pgno = pgno;
        f->pages[f->n_pages].frame = frame;
        f->n_pages++;
        if (commit != 0) {
            n_committed = f->n_pages;
            committed = commit;
        }
    }
    free(buf);
    f->n_pages = n_committed; /* frames after the last commit never were */
    if (n_committed == 0)
        return SQLITE_OK;
    qsort(f->pages, f->n_pages, sizeof(*f->pages), cmp_page);
    keep_latest(f);
    f->page_size = ps;
    f->size = (sqlite3_int64)committed * ps;
    return SQLITE_OK;
}

/* The frame holding page `pgno`, or -1 when the file's own copy stands. */
static int64_t
frame_of(const struct ro_file *f, uint32_t pgno)
{
    size_t lo = 0, hi = f->n_pages;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (f->pages[mid].pgno < pgno)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < f->n_pages && f->pages[lo].pgno == pgno
               ? (int64_t)f->pages[lo].frame
               : -1;
}

/* Read [off, off + amt) of one page from the log or the file. */
static int
read_piece(struct ro_file *f, unsigned char *p, int amt, sqlite3_int64 off)
{
    int64_t frame = -1;

    if (f->n_pages > 0)
        frame = frame_of(f, (uint32_t)(off / f->page_size) + 1);
    if (frame < 0)
        return f->real->pMethods->xRead(f->real, p, amt, off);
    if (!full_read(f->wal_fd, p, (size_t)amt,
                   WAL_HEADER +
                       (off_t)frame * (FRAME_HEADER + (off_t)f->page_size) +
                       FRAME_HEADER + (off_t)(off % f->page_size)))
        return SQLITE_IOERR_READ;
    return SQLITE_OK;
}

static int
ro_read(sqlite3_file *file, void *buf, int amt, sqlite3_int64 off)
{
    struct ro_file *f = (struct ro_file *)file;
    unsigned char *p = buf;
    int rc = SQLITE_OK, short_read = 0;

    if (f->wal_fd < 0 || f->n_pages == 0)
        return f->real->pMethods->xRead(f->real, buf, amt, off);
    while (amt > 0 && rc == SQLITE_OK) {
        sqlite3_int64 in_page = f->page_size - off % f->page_size;
        int n = amt < in_page ? amt : (int)in_page;

        if (off >= f->size) {
            memset(p, 0, (size_t)amt);
            short_read = 1;
            break;
        }
        rc = read_piece(f, p, n, off);
        if (rc == SQLITE_IOERR_SHORT_READ) {
            short_read = 1; /* zero-filled by the default VFS */
            rc = SQLITE_OK;
        }
        p += n;
        off += n;
        amt -= n;
    }
    return rc != SQLITE_OK ? rc : short_read ? SQLITE_IOERR_SHORT_READ : rc;
}

static int
ro_close(sqlite3_file *file)
{
    struct ro_file *f = (struct ro_file *)file;
    int rc = f->real->pMethods != NULL ? f->real->pMethods->xClose(f->real)
                                       : SQLITE_OK;

    if (f->wal_fd >= 0)
        close(f->wal_fd);
    free(f->pages);
    f->wal_fd = -1;
    f->pages = NULL;
    return rc;
}

static int
ro_write(sqlite3_file *file, const void *buf, int amt, sqlite3_int64 off)
{
    (void)file;
    (void)buf;
    (void)amt;
    (void)off;
    return SQLITE_READONLY;
}

static int
ro_truncate(sqlite3_file *file, sqlite3_int64 size)
{
    (void)file;
    (void)size;
    return SQLITE_READONLY;
}

static int
ro_sync(sqlite3_file *file, int flags)
{
    (void)file;
    (void)flags;
    return SQLITE_OK;
}

static int
ro_size(sqlite3_file *file, sqlite3_int64 *size)
{
    struct ro_file *f = (struct ro_file *)file;

    if (f->wal_fd >= 0 && f->n_pages > 0) {
        *size = f->size;
        return SQLITE_OK;
    }
    return f->real->pMethods->xFileSize(f->real, size);
}

/* No locks: the file is read as it is (the connection is immutable). */
static int
ro_lock(sqlite3_file *file, int level)
{
    (void)file;
    (void)level;
    return SQLITE_OK;
}

static int
ro_reserved(sqlite3_file *file, int *out)
{
    (void)file;
    *out = 0;
    return SQLITE_OK;
}

static int
ro_control(sqlite3_file *file, int op, void *arg)
{
    (void)file;
    (void)op;
    (void)arg;
    return SQLITE_NOTFOUND;
}

static int
ro_sector(sqlite3_file *file)
{
    (void)file;
    return 4096;
}

static int
ro_device(sqlite3_file *file)
{
    (void)file;
    return SQLITE_IOCAP_IMMUTABLE;
}

/* Version 1: no shared memory (no "-shm"), no memory mapping. */
static const sqlite3_io_methods ro_methods = {
    .iVersion = 1,
    .xClose = ro_close,
    .xRead = ro_read,
    .xWrite = ro_write,
    .xTruncate = ro_truncate,
    .xSync = ro_sync,
    .xFileSize = ro_size,
    .xLock = ro_lock,
    .xUnlock = ro_lock,
    .xCheckReservedLock = ro_reserved,
    .xFileControl = ro_control,
    .xSectorSize = ro_sector,
    .xDeviceCharacteristics = ro_device,
};

/* Open "<name>-wal" when it is there: a regular file only (a FIFO or a
 * device would block or never end); -1 when there is none. */
static int
open_wal(const char *name, int *fd, off_t *bytes)
{
    size_t n = strlen(name);
    char *path = malloc(n + 5);
    struct stat sb;

    *fd = -1;
    *bytes = 0;
    if (path == NULL)
        return SQLITE_NOMEM;
    memcpy(path, name, n);
    memcpy(path + n, "-wal", 5);
    *fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    free(path);
    if (*fd < 0)
        return errno == ENOENT ? SQLITE_OK : SQLITE_CANTOPEN;
    if (fstat(*fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(*fd);
        *fd = -1;
        return SQLITE_CANTOPEN;
    }
    *bytes = sb.st_size;
    return SQLITE_OK;
}

static int
ro_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *file, int flags,
        int *out_flags)
{
    sqlite3_vfs *parent = vfs->pAppData;
    struct ro_file *f = (struct ro_file *)file;
    off_t wal_bytes;
    int rc;

    if (!(flags & SQLITE_OPEN_MAIN_DB)) {
        /* SQLite's own scratch files, never beside the database: a
         * journal or a log of the database itself is never opened */
        if (name != NULL && !(flags & SQLITE_OPEN_DELETEONCLOSE))
            return SQLITE_CANTOPEN;
        return parent->xOpen(parent, name, file, flags, out_flags);
    }
    memset(f, 0, sizeof(*f));
    f->wal_fd = -1;
    f->real = (sqlite3_file *)(f + 1);
    flags = (flags & ~(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)) |
            SQLITE_OPEN_READONLY;
    rc = parent->xOpen(parent, name, f->real, flags, out_flags);
    if (rc != SQLITE_OK)
        return rc;
    f->base.pMethods = &ro_methods;
    rc = open_wal(name, &f->wal_fd, &wal_bytes);
    if (rc == SQLITE_OK && f->wal_fd >= 0)
        rc = wal_scan(f, wal_bytes);
    if (rc != SQLITE_OK) {
        ro_close(file);
        f->base.pMethods = NULL;
    }
    return rc;
}

static void
ro_init(void)
{
    sqlite3_vfs *parent = sqlite3_vfs_find(NULL);

    if (parent == NULL)
        return;
    ro_vfs = *parent;
    ro_vfs.szOsFile = (int)sizeof(struct ro_file) + parent->szOsFile;
    ro_vfs.pNext = NULL;
    ro_vfs.zName = PR_SQLITE_VFS;
    ro_vfs.pAppData = parent;
    ro_vfs.xOpen = ro_open;
    ro_registered = sqlite3_vfs_register(&ro_vfs, 0) == SQLITE_OK;
    sqlite3_hard_heap_limit64(HEAP_LIMIT);
}

const char *
pr_sqlite_vfs(void)
{
    pthread_once(&ro_once, ro_init);
    return ro_registered ? PR_SQLITE_VFS : NULL;
}
