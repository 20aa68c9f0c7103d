/* source.c - the bytes of one input document, whatever its container: a
 * file or a memory buffer, gzip (detected by its magic bytes, not the
 * name) inflated in-process, optionally read a few chunks ahead on a
 * thread of its own, with a cap on what is read and handed out.  Every
 * reader (JSON, CSV, ...) takes its bytes from here; what the bytes mean
 * is the reader's business. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ZLIB_CONST
#include <zlib.h>

#include "internal.h"
#include "profreport/formats.h"
#include "profreport/parse.h"

#define CHUNK_BYTES ((size_t)1 << 20) /* one read, or one inflate output */
#define GZ_AHEAD 4                    /* chunks kept ready */
#define FIFO_WAIT_S 10 /* how long a FIFO may stay without a writer */

/* Reading and inflation run on a thread of their own, a few chunks ahead
 * of the consumer: zlib is single-threaded and about as costly as
 * splitting JSON, so on one thread the two would set the pace for the
 * whole ingest (and read() copies are better done off the consumer's
 * thread too). */
struct ahead {
    pthread_t thread;
    int live; /* thread started */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned char *buf[GZ_AHEAD]; /* owned */
    size_t len[GZ_AHEAD];
    uint64_t raw_at[GZ_AHEAD]; /* file bytes read when the chunk was made */
    size_t head, n_full;       /* filled: head .. head + n_full - 1 */
    int held;                  /* the consumer still reads head - 1 */
    int done, stop;
    enum pr_status st; /* how the filler ended */
    struct pr_error err;
};

struct pr_source {
    int fd;                   /* -1 for memory input */
    int fifo;                 /* a pipe: the first read waits, bounded */
    const unsigned char *mem; /* memory input (borrowed) */
    size_t mem_len, mem_pos;
    unsigned char *in; /* file reads (compressed or not); owned */
    size_t in_len;     /* bytes of `in` not yet handed out (plain) */
    int in_eof;
    int gz;          /* gzip: inflate `in` into chunks */
    int gz_live;     /* zs is initialised */
    int member_done; /* the last gzip member ended */
    z_stream zs;
    uint64_t gz_out;    /* bytes inflated (the inflater's count) */
    unsigned char *out; /* inflate output without a read-ahead thread */
    struct ahead ahead;
    uint64_t raw;      /* bytes read from the file or buffer */
    uint64_t produced; /* document bytes handed out */
    uint64_t raw_out;  /* file bytes behind them (the consumer's view) */
    uint64_t max;
    int max_default; /* max is PR_READ_DEFAULT_MAX: say so when hit */
    size_t chunk;    /* bytes of one read or inflate: CHUNK_BYTES, or a
                        head's few KB (pr_source_head) */
};

static void
ahead_stop(struct ahead *a)
{
    size_t i;

    if (a->live) {
        pthread_mutex_lock(&a->mu);
        a->stop = 1;
        pthread_cond_broadcast(&a->cv);
        pthread_mutex_unlock(&a->mu);
        pthread_join(a->thread, NULL);
        pthread_mutex_destroy(&a->mu);
        pthread_cond_destroy(&a->cv);
        a->live = 0;
    }
    for (i = 0; i < GZ_AHEAD; i++)
        free(a->buf[i]);
}

void
pr_source_close(struct pr_source *s)
{
    if (s == NULL)
        return;
    ahead_stop(&s->ahead);
    if (s->gz_live)
        inflateEnd(&s->zs);
    if (s->fd >= 0)
        close(s->fd);
    free(s->in);
    free(s->out);
    free(s);
}

/* The cap was hit: `what` ("input", "uncompressed input") is larger. */
static enum pr_status
over_limit(const struct pr_source *s, const char *what, struct pr_error *err)
{
    if (!s->max_default)
        return pr_error_set(err, PR_E_LIMIT,
                            "byte %" PRIu64 ": %s larger than the limit of "
                            "%" PRIu64 " bytes",
                            s->max, what, s->max);
    return pr_error_set(err, PR_E_LIMIT,
                        "byte %" PRIu64 ": %s larger than the default limit "
                        "of %" PRIu64 " MiB, half of the memory profreport "
                        "may use here; --max-input SIZE sets another",
                        s->max, what, s->max >> 20);
}

/* The number after `key` on a line of `path`, times `unit`; 0 when the
 * file or the line is absent or holds no number ("max": no limit). */
static uint64_t
mem_from(const char *path, const char *key, uint64_t unit)
{
    char line[256], *end;
    unsigned long long v = 0;
    size_t k = strlen(key);
    FILE *f = fopen(path, "r");

    if (f == NULL)
        return 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, key, k) != 0)
            continue;
        errno = 0;
        v = strtoull(line + k, &end, 10);
        if (errno != 0 || end == line + k || v > UINT64_MAX / unit)
            v = 0;
        break;
    }
    fclose(f);
    return (uint64_t)v * unit;
}

/* The smaller of two limits, 0 meaning none. */
static uint64_t
lower(uint64_t a, uint64_t b)
{
    return a == 0 || (b > 0 && b < a) ? b : a;
}

uint64_t
pr_read_default_max(void)
{
    const char *env = getenv("PROFREPORT_MEMORY");
    uint64_t mem = 0;

    if (env != NULL && pr_parse_bytes(env, 1, UINT64_MAX, &mem))
        return mem / 2;
    mem = mem_from("/proc/meminfo", "MemTotal:", 1024); /* "123 kB" */
    mem = lower(mem, mem_from("/sys/fs/cgroup/memory.max", "", 1));
    mem = lower(mem,
                mem_from("/sys/fs/cgroup/memory/memory.limit_in_bytes", "", 1));
    return mem > 0 ? mem / 2 : (uint64_t)32 << 30; /* unknown: 32 GiB */
}

/* Count n more raw bytes against the cap. */
static enum pr_status
counted(struct pr_source *s, size_t n, struct pr_error *err)
{
    s->raw += n;
    return s->raw > s->max ? over_limit(s, "input", err) : PR_OK;
}

/* One read() of up to `cap` bytes into `into`, counted against the cap. */
static enum pr_status
read_some(struct pr_source *s, unsigned char *into, size_t cap, size_t *n,
          struct pr_error *err)
{
    ssize_t got;

    do
        got = read(s->fd, into, cap);
    while (got < 0 && errno == EINTR);
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return pr_error_set(err, PR_E_IO,
                            "byte %" PRIu64 ": no data without waiting: "
                            "not a file of data (a kernel interface such "
                            "as /proc/kmsg?)",
                            s->raw);
    if (got < 0)
        return pr_error_set(err, PR_E_IO, "byte %" PRIu64 ": read error: %s",
                            s->raw, strerror(errno));
    *n = (size_t)got;
    return counted(s, *n, err);
}

/* Next raw bytes: a slice of the memory buffer, or one read() into
 * `into` (s->chunk). */
static enum pr_status
src_raw(struct pr_source *s, unsigned char *into, const unsigned char **p,
        size_t *n, struct pr_error *err)
{
    if (s->fd >= 0) {
        *p = into;
        return read_some(s, into, s->chunk, n, err);
    }
    *p = s->mem + s->mem_pos;
    *n =
        s->mem_len - s->mem_pos < s->chunk ? s->mem_len - s->mem_pos : s->chunk;
    s->mem_pos += *n;
    return counted(s, *n, err);
}

/* The first read of a FIFO, opened without blocking (open() would wait for
 * a writer, forever if none comes): wait up to FIFO_WAIT_S for bytes or
 * for a writer to come and go.  Nothing and nobody by then is an error; a
 * writer that is there but silent is waited for, as on any pipe. */
static enum pr_status
fifo_first(struct pr_source *s, size_t *n, struct pr_error *err)
{
    struct pollfd pfd = {s->fd, POLLIN, 0};
    ssize_t got;
    int ready, flags, why;

    do
        ready = poll(&pfd, 1, FIFO_WAIT_S * 1000);
    while (ready < 0 && errno == EINTR);
    do
        got = read(s->fd, s->in, s->chunk);
    while (got < 0 && errno == EINTR);
    why = got < 0 ? errno : 0;
    if (got == 0 && ready == 0)
        return pr_error_set(err, PR_E_IO,
                            "byte 0: no writer opened the FIFO within %d s",
                            FIFO_WAIT_S);
    flags = fcntl(s->fd, F_GETFL);
    if (flags < 0 || fcntl(s->fd, F_SETFL, flags & ~O_NONBLOCK) < 0)
        return pr_error_set(err, PR_E_IO, "byte 0: %s", strerror(errno));
    if (got < 0 && (why == EAGAIN || why == EWOULDBLOCK))
        return read_some(s, s->in, s->chunk, n, err); /* writer, silent */
    if (got < 0)
        return pr_error_set(err, PR_E_IO, "byte 0: read error: %s",
                            strerror(why));
    *n = (size_t)got;
    return counted(s, *n, err);
}

/* The first bytes of a file: at least the two of gzip's magic unless the
 * input is shorter (a pipe may hand them over one at a time). */
static enum pr_status
first_read(struct pr_source *s, const unsigned char **p, size_t *n,
           struct pr_error *err)
{
    enum pr_status st;
    size_t more = 0;

    *p = s->in;
    st =
        s->fifo ? fifo_first(s, n, err) : read_some(s, s->in, s->chunk, n, err);
    if (st == PR_OK && *n == 1) {
        st = read_some(s, s->in + 1, s->chunk - 1, &more, err);
        *n += more;
    }
    return st;
}

static enum pr_status
gz_refill(struct pr_source *s, struct pr_error *err)
{
    const unsigned char *p;
    size_t n;
    enum pr_status st;

    if (s->zs.avail_in > 0 || s->in_eof)
        return PR_OK;
    st = src_raw(s, s->in, &p, &n, err);
    if (st != PR_OK)
        return st;
    s->in_eof = n == 0;
    s->zs.next_in = p;
    s->zs.avail_in = (uInt)n;
    return PR_OK;
}

static enum pr_status
gz_error(struct pr_source *s, int ret, struct pr_error *err)
{
    if (ret == Z_MEM_ERROR)
        return pr_error_set(err, PR_E_NOMEM, "out of memory in zlib");
    return pr_error_set(err, PR_E_FORMAT,
                        "byte %" PRIu64 ": corrupt gzip data at compressed "
                        "byte %" PRIu64 " (%s)",
                        s->gz_out, s->raw - s->zs.avail_in,
                        s->zs.msg ? s->zs.msg : "zlib error");
}

/* Start the next gzip member, if more input follows the one that ended.
 * *more is 0 at a clean end of input. */
static enum pr_status
gz_next_member(struct pr_source *s, int *more, struct pr_error *err)
{
    enum pr_status st = gz_refill(s, err);

    *more = 0;
    if (st != PR_OK || s->zs.avail_in == 0)
        return st;
    if (s->zs.next_in[0] != 0x1f)
        return pr_error_set(err, PR_E_FORMAT,
                            "byte %" PRIu64 ": data after the end of the "
                            "gzip stream (compressed byte %" PRIu64 ")",
                            s->gz_out, s->raw - s->zs.avail_in);
    if (inflateReset(&s->zs) != Z_OK)
        return gz_error(s, Z_STREAM_ERROR, err);
    s->member_done = 0;
    *more = 1;
    return PR_OK;
}

/* Inflate the next chunk of the document into `out` (multi-member
 * aware); *n == 0 at the end. */
static enum pr_status
gz_next(struct pr_source *s, unsigned char *out, size_t *n,
        struct pr_error *err)
{
    for (;;) {
        enum pr_status st;
        int ret, more;

        if (s->member_done) {
            st = gz_next_member(s, &more, err);
            if (st != PR_OK || !more) {
                *n = 0;
                return st;
            }
        }
        st = gz_refill(s, err);
        if (st != PR_OK)
            return st;
        s->zs.next_out = out;
        s->zs.avail_out = (uInt)s->chunk;
        ret = inflate(&s->zs, Z_NO_FLUSH);
        if (ret == Z_STREAM_END)
            s->member_done = 1;
        else if (ret != Z_OK && ret != Z_BUF_ERROR)
            return gz_error(s, ret, err);
        *n = s->chunk - s->zs.avail_out;
        s->gz_out += *n;
        if (*n > 0)
            return PR_OK;
        if (!s->member_done && s->in_eof && s->zs.avail_in == 0)
            return pr_error_set(err, PR_E_FORMAT,
                                "byte %" PRIu64 ": gzip stream is truncated "
                                "(after %" PRIu64 " compressed bytes)",
                                s->gz_out, s->raw);
    }
}

/* One chunk into `buf` (s->chunk), inflated or not; *n == 0 at the
 * end.  Runs on the filler thread when there is one. */
static enum pr_status
fill(struct pr_source *s, unsigned char *buf, const unsigned char **p,
     size_t *n, struct pr_error *err)
{
    if (s->gz) {
        *p = buf;
        return gz_next(s, buf, n, err);
    }
    return src_raw(s, buf, p, n, err);
}

/* File bytes behind the document bytes made so far: those read, less a
 * .gz's not yet inflated.  The filler's (or a single-threaded consumer's)
 * view. */
static uint64_t
raw_used(const struct pr_source *s)
{
    return s->gz && s->gz_live ? s->raw - s->zs.avail_in : s->raw;
}

static void *
filler_main(void *arg)
{
    struct pr_source *s = arg;
    struct ahead *a = &s->ahead;
    struct pr_error err;

    pr_error_clear(&err);
    for (;;) {
        const unsigned char *p;
        enum pr_status st;
        size_t slot, n = 0;

        pthread_mutex_lock(&a->mu);
        while (!a->stop && a->n_full + (size_t)a->held >= GZ_AHEAD)
            pthread_cond_wait(&a->cv, &a->mu);
        slot = (a->head + a->n_full) % GZ_AHEAD;
        pthread_mutex_unlock(&a->mu);
        if (a->stop) /* read under the lock above; only ever set to 1 */
            return NULL;
        st = fill(s, a->buf[slot], &p, &n, &err);
        pthread_mutex_lock(&a->mu);
        if (st != PR_OK || n == 0) {
            a->done = 1;
            a->st = st;
            a->err = err;
        } else {
            a->len[slot] = n;
            a->raw_at[slot] = raw_used(s); /* the filler's own count */
            a->n_full++;
        }
        pthread_cond_broadcast(&a->cv);
        pthread_mutex_unlock(&a->mu);
        if (st != PR_OK || n == 0)
            return NULL;
    }
}

/* The consumer's side: the next chunk.  The previous one is handed back,
 * so it must no longer be in use. */
static enum pr_status
ahead_next(struct ahead *a, const char **p, size_t *n, uint64_t *raw,
           struct pr_error *err)
{
    enum pr_status st = PR_OK;

    pthread_mutex_lock(&a->mu);
    a->held = 0;
    pthread_cond_broadcast(&a->cv);
    while (a->n_full == 0 && !a->done)
        pthread_cond_wait(&a->cv, &a->mu);
    if (a->n_full > 0) {
        *p = (const char *)a->buf[a->head];
        *n = a->len[a->head];
        *raw = a->raw_at[a->head];
        a->head = (a->head + 1) % GZ_AHEAD;
        a->n_full--;
        a->held = 1;
        pthread_cond_broadcast(&a->cv);
    } else {
        *n = 0;
        st = a->st;
        if (st != PR_OK)
            pr_error_set(err, st, "%s", a->err.msg);
    }
    pthread_mutex_unlock(&a->mu);
    return st;
}

static enum pr_status
ahead_start(struct pr_source *s, struct pr_error *err)
{
    struct ahead *a = &s->ahead;
    size_t i;

    for (i = 0; i < GZ_AHEAD; i++) {
        a->buf[i] = malloc(s->chunk);
        if (a->buf[i] == NULL)
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->cv, NULL);
    if (pthread_create(&a->thread, NULL, filler_main, s) != 0) {
        pthread_mutex_destroy(&a->mu);
        pthread_cond_destroy(&a->cv);
        return pr_error_set(err, PR_E_NOMEM, "cannot start a thread");
    }
    a->live = 1;
    return PR_OK;
}

enum pr_status
pr_source_next(struct pr_source *s, const char **p, size_t *n,
               struct pr_error *err)
{
    const unsigned char *raw;
    enum pr_status st;

    if (s->in_len > 0) {
        /* the first read, kept while sniffing for gzip */
        *p = (const char *)s->in;
        *n = s->in_len;
        s->in_len = 0;
        s->raw_out = *n;
        st = PR_OK;
    } else if (s->ahead.live) {
        st = ahead_next(&s->ahead, p, n, &s->raw_out, err);
    } else {
        /* the previous chunk is done with: reuse its buffer */
        st = fill(s, s->gz ? s->out : s->in, &raw, n, err);
        *p = (const char *)raw;
        s->raw_out = raw_used(s);
    }
    if (st != PR_OK)
        return st;
    s->produced += *n;
    if (s->produced > s->max)
        return over_limit(s, "uncompressed input", err);
    return PR_OK;
}

uint64_t
pr_source_bytes(const struct pr_source *s)
{
    return s->produced;
}

uint64_t
pr_source_raw_bytes(const struct pr_source *s)
{
    return s->raw_out;
}

/* Look at the first bytes and set up inflation when they are gzip's. */
static enum pr_status
src_start(struct pr_source *s, int ahead, struct pr_error *err)
{
    const unsigned char *p;
    size_t n;
    enum pr_status st;

    if (s->fd >= 0) {
        s->in = malloc(s->chunk);
        if (s->in == NULL)
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    st =
        s->fd >= 0 ? first_read(s, &p, &n, err) : src_raw(s, NULL, &p, &n, err);
    if (st != PR_OK)
        return st;
    if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b) {
        s->gz = 1;
        /* 15 + 32: a zlib or gzip header, detected by zlib */
        if (inflateInit2(&s->zs, 15 + 32) != Z_OK)
            return pr_error_set(err, PR_E_NOMEM, "cannot start zlib");
        s->gz_live = 1;
        s->zs.next_in = p;
        s->zs.avail_in = (uInt)n;
    } else if (s->fd < 0) {
        s->mem_pos = 0; /* hand the same bytes out again, uncopied */
        s->raw = 0;
        return PR_OK;
    } else {
        s->in_len = n;
    }
    if (ahead)
        return ahead_start(s, err);
    if (s->gz && (s->out = malloc(s->chunk)) == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}

static enum pr_status
src_new(uint64_t max, struct pr_source **out, struct pr_error *err)
{
    *out = calloc(1, sizeof(**out));
    if (*out == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    (*out)->fd = -1;
    (*out)->chunk = CHUNK_BYTES;
    (*out)->max = max > 0 ? max : pr_read_default_max();
    (*out)->max_default = max == 0;
    return PR_OK;
}

/* Hand over a started source, or free it on failure. */
static enum pr_status
started(struct pr_source *s, int ahead, struct pr_source **out,
        struct pr_error *err)
{
    enum pr_status st = src_start(s, ahead, err);

    if (st != PR_OK) {
        pr_source_close(s);
        return st;
    }
    *out = s;
    return PR_OK;
}

/* Open without blocking, so that a FIFO without a writer cannot hold us
 * in open(); a FIFO's first read waits instead (fifo_first), bounded.  A
 * regular file stays non-blocking: a file of data never blocks, and one
 * that would (a /proc entry such as /proc/kmsg says "regular file") fails
 * its read instead of hanging.  Anything else reads blocking. */
static enum pr_status
open_file(struct pr_source *s, const char *path, struct pr_error *err)
{
    struct stat sb;
    int flags;

    s->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (s->fd < 0)
        return pr_error_set(err, PR_E_IO, "cannot open: %s", strerror(errno));
    if (fstat(s->fd, &sb) == 0 && S_ISFIFO(sb.st_mode)) {
        s->fifo = 1;
        return PR_OK;
    }
    if (S_ISREG(sb.st_mode))
        return PR_OK;
    flags = fcntl(s->fd, F_GETFL);
    if (flags < 0 || fcntl(s->fd, F_SETFL, flags & ~O_NONBLOCK) < 0)
        return pr_error_set(err, PR_E_IO, "cannot open: %s", strerror(errno));
    return PR_OK;
}

/* pr_source_open, reading `chunk` bytes at a time. */
static enum pr_status
open_chunked(const char *path, uint64_t max, int ahead, size_t chunk,
             struct pr_source **out, struct pr_error *err)
{
    struct pr_source *s;
    enum pr_status st = src_new(max, &s, err);

    *out = NULL;
    if (st != PR_OK)
        return st;
    s->chunk = chunk;
    st = open_file(s, path, err);
    if (st != PR_OK) {
        pr_source_close(s);
        return st;
    }
    return started(s, ahead, out, err);
}

enum pr_status
pr_source_open(const char *path, uint64_t max, int ahead,
               struct pr_source **out, struct pr_error *err)
{
    return open_chunked(path, max, ahead, CHUNK_BYTES, out, err);
}

enum pr_status
pr_source_open_mem(const void *data, size_t len, uint64_t max, int ahead,
                   struct pr_source **out, struct pr_error *err)
{
    struct pr_source *s;
    enum pr_status st = src_new(max, &s, err);

    *out = NULL;
    if (st != PR_OK)
        return st;
    s->mem = data;
    s->mem_len = len;
    return started(s, ahead, out, err);
}

enum pr_status
pr_source_head(const char *path, char *buf, size_t cap, size_t *n, int *whole,
               struct pr_error *err)
{
    struct pr_source *s;
    /* read what the head needs, not a whole chunk: discovery takes the
     * head of each of a job's 1,024 files (issue #33) */
    enum pr_status st = open_chunked(path, UINT64_MAX, 0,
                                     cap < 4096          ? 4096
                                     : cap > CHUNK_BYTES ? CHUNK_BYTES
                                                         : cap,
                                     &s, err);
    const char *p;
    size_t got;

    *n = 0;
    *whole = 0;
    while (st == PR_OK && *n < cap) {
        st = pr_source_next(s, &p, &got, err);
        if (st != PR_OK || got == 0) {
            *whole = st == PR_OK;
            break;
        }
        if (got > cap - *n)
            got = cap - *n;
        memcpy(buf + *n, p, got);
        *n += got;
    }
    pr_source_close(s);
    return st;
}
