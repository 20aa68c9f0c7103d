/* test_source.c - the byte source every reader takes its input from: plain
 * and gzip'd files and buffers, with and without the read-ahead thread,
 * multi-member gzip, the size caps and the sniffing head. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#define ZLIB_CONST
#include <zlib.h>

#include "../../src/ingest/internal.h"
#include "profreport/formats.h"

/* Deterministic text of n bytes, larger than one chunk when asked. */
static char *
make_text(size_t n)
{
    char *p = malloc(n);
    size_t i;

    assert_non_null(p);
    for (i = 0; i < n; i++)
        p[i] = (char)('a' + (i * 7 + i / 13) % 26);
    return p;
}

/* gzip of data (one member) into a new buffer. */
static unsigned char *
gzip_of(const char *data, size_t n, size_t *out_n)
{
    z_stream zs;
    size_t cap = compressBound((uLong)n) + 64;
    unsigned char *out = malloc(cap);

    assert_non_null(out);
    memset(&zs, 0, sizeof(zs));
    assert_int_equal(
        deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    zs.next_in = (const Bytef *)data;
    zs.avail_in = (uInt)n;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
    *out_n = cap - zs.avail_out;
    deflateEnd(&zs);
    return out;
}

/* Drain a source into a new buffer; returns the status of the last
 * call. */
static enum pr_status
drain(struct pr_source *s, char **out, size_t *n, struct pr_error *err)
{
    enum pr_status st;
    const char *p;
    size_t got;

    *out = NULL;
    *n = 0;
    for (;;) {
        st = pr_source_next(s, &p, &got, err);
        if (st != PR_OK || got == 0)
            return st;
        *out = realloc(*out, *n + got);
        assert_non_null(*out);
        memcpy(*out + *n, p, got);
        *n += got;
    }
}

static void
check_mem(const void *data, size_t len, const char *want, size_t want_n,
          int ahead)
{
    struct pr_source *s = NULL;
    struct pr_error err;
    char *got;
    size_t n;

    pr_error_clear(&err);
    assert_int_equal(pr_source_open_mem(data, len, UINT64_MAX, ahead, &s, &err),
                     PR_OK);
    assert_int_equal(drain(s, &got, &n, &err), PR_OK);
    assert_int_equal(n, want_n);
    assert_memory_equal(got, want, n);
    assert_int_equal(pr_source_bytes(s), want_n);
    free(got);
    pr_source_close(s);
}

static void
test_plain_and_gzip_buffers(void **state)
{
    size_t n = (3u << 20) + 12345, gn;
    char *text = make_text(n);
    unsigned char *gz = gzip_of(text, n, &gn);
    int ahead;

    (void)state;
    for (ahead = 0; ahead < 2; ahead++) {
        check_mem(text, n, text, n, ahead);
        check_mem(gz, gn, text, n, ahead);
        check_mem("", 0, "", 0, ahead);
    }
    free(gz);
    free(text);
}

static void
test_multi_member_gzip(void **state)
{
    size_t a_n, b_n;
    unsigned char *a = gzip_of("hello, ", 7, &a_n);
    unsigned char *b = gzip_of("world", 5, &b_n);
    unsigned char *both = malloc(a_n + b_n);

    (void)state;
    assert_non_null(both);
    memcpy(both, a, a_n);
    memcpy(both + a_n, b, b_n);
    check_mem(both, a_n + b_n, "hello, world", 12, 1);
    check_mem(both, a_n + b_n, "hello, world", 12, 0);
    free(a);
    free(b);
    free(both);
}

static void
expect_error(const void *data, size_t len, uint64_t max, enum pr_status code,
             const char *sub)
{
    struct pr_source *s = NULL;
    struct pr_error err;
    enum pr_status st;
    char *got = NULL;
    size_t n;

    pr_error_clear(&err);
    st = pr_source_open_mem(data, len, max, 1, &s, &err);
    if (st == PR_OK)
        st = drain(s, &got, &n, &err);
    free(got);
    pr_source_close(s);
    if (st != code || strstr(err.msg, sub) == NULL)
        fail_msg("want %d \"%s\", got %d \"%s\"", code, sub, st, err.msg);
}

static void
test_errors(void **state)
{
    size_t n = 100000, gn;
    char *text = make_text(n);
    unsigned char *gz = gzip_of(text, n, &gn);
    unsigned char *junk = malloc(gn + 4);

    (void)state;
    assert_non_null(junk);
    /* the inflated size is capped, not only what is read */
    expect_error(gz, gn, 50000, PR_E_LIMIT,
                 "uncompressed input larger than the limit of 50000 bytes");
    expect_error(text, n, 1000, PR_E_LIMIT,
                 "input larger than the limit of 1000 bytes");
    expect_error(gz, gn / 2, UINT64_MAX, PR_E_FORMAT,
                 "gzip stream is truncated");
    memcpy(junk, gz, gn);
    memcpy(junk + gn, "abcd", 4);
    expect_error(junk, gn + 4, UINT64_MAX, PR_E_FORMAT,
                 "data after the end of the gzip stream");
    junk[20] ^= 0xff;
    expect_error(junk, gn, UINT64_MAX, PR_E_FORMAT, "corrupt gzip data");
    free(junk);
    free(gz);
    free(text);
}

static void
write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");

    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void
test_files_and_head(void **state)
{
    char dir[] = "/tmp/pr_source_XXXXXX", path[256], head[64];
    size_t n = (2u << 20) + 7, gn, hn;
    char *text = make_text(n), *got;
    unsigned char *gz = gzip_of(text, n, &gn);
    struct pr_source *s = NULL;
    struct pr_error err;
    int whole, ahead;

    (void)state;
    pr_error_clear(&err);
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/t.gz", dir);
    write_file(path, gz, gn);
    for (ahead = 0; ahead < 2; ahead++) {
        assert_int_equal(pr_source_open(path, UINT64_MAX, ahead, &s, &err),
                         PR_OK);
        assert_int_equal(drain(s, &got, &hn, &err), PR_OK);
        assert_int_equal(hn, n);
        assert_memory_equal(got, text, n);
        free(got);
        pr_source_close(s);
    }
    /* the head is inflated, and says whether it is all there is */
    assert_int_equal(
        pr_source_head(path, head, sizeof(head), &hn, &whole, &err), PR_OK);
    assert_int_equal(hn, sizeof(head));
    assert_false(whole);
    assert_memory_equal(head, text, sizeof(head));
    snprintf(path, sizeof(path), "%s/small", dir);
    write_file(path, "{}", 2);
    assert_int_equal(
        pr_source_head(path, head, sizeof(head), &hn, &whole, &err), PR_OK);
    assert_int_equal(hn, 2);
    assert_true(whole);
    unlink(path);
    snprintf(path, sizeof(path), "%s/t.gz", dir);
    unlink(path);
    rmdir(dir);
    assert_int_equal(pr_source_open(path, UINT64_MAX, 1, &s, &err), PR_E_IO);
    assert_null(s);
    assert_non_null(strstr(err.msg, "cannot open"));
    free(gz);
    free(text);
}

/* Issue #17: the default cap is half of the memory profreport may use;
 * PROFREPORT_MEMORY stands for that memory, a source opened with max 0
 * takes the default and says so when it is hit. */
static void
test_default_max(void **state)
{
    static const char text[] = "0123456789abcdef0123456789abcdef";
    struct pr_source *s = NULL;
    struct pr_error err;
    uint64_t m;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(unsetenv("PROFREPORT_MEMORY"), 0);
    m = pr_read_default_max();
    assert_true(m >= ((uint64_t)64 << 20)); /* any machine that runs tests */
    assert_int_equal(setenv("PROFREPORT_MEMORY", "8GiB", 1), 0);
    assert_true(pr_read_default_max() == (uint64_t)4 << 30);
    assert_int_equal(setenv("PROFREPORT_MEMORY", "40", 1), 0);
    assert_true(PR_READ_DEFAULT_MAX == 20);
    /* the first look at the bytes already passes the cap */
    assert_int_equal(pr_source_open_mem(text, 32, 0, 0, &s, &err), PR_E_LIMIT);
    assert_null(s);
    assert_non_null(strstr(err.msg, "byte 20: input larger than the default "
                                    "limit of 0 MiB, half of the memory"));
    /* not a byte count: the machine's memory again */
    assert_int_equal(setenv("PROFREPORT_MEMORY", "lots", 1), 0);
    assert_true(pr_read_default_max() == m);
    assert_int_equal(unsetenv("PROFREPORT_MEMORY"), 0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_and_gzip_buffers),
        cmocka_unit_test(test_multi_member_gzip),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_files_and_head),
        cmocka_unit_test(test_default_max),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
