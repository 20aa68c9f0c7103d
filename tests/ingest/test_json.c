/* test_json.c - the reader accepts exactly one language (JSON, plus the
 * bare NaN/Infinity/-Infinity/N/A values and control characters in strings
 * that real traces carry), whatever path a value takes: a member of an
 * event that is cut or kept, an event that is skipped, a top-level value
 * that is skipped or captured, a bare array; read in one piece, gzip'd,
 * from a file whose first chunk ends inside the value, or fed a byte at a
 * time.  A value that is not JSON fails with PR_E_FORMAT at the byte that
 * is wrong (the start of a wrong number or literal). */
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
#include "profreport/reader.h"

#define CHUNK ((size_t)1 << 20) /* source.c's read size */

/* A value, and where it is wrong (offset in the value) or -1. */
struct jcase {
    const char *v;
    int bad;
};

static const struct jcase cases[] = {
    {"1", -1},
    {"-0.5e+3", -1},
    {"0", -1},
    {"12E7", -1},
    {"true", -1},
    {"null", -1},
    {"\"a\\u00e9\\n\\\"\\\\\"", -1},
    {"\"tab\there\x01\"", -1},
    {"[1, {\"a\": [true, false, null]}, \"x\", []]", -1},
    {"{}", -1},
    {"NaN", -1},
    {"-Infinity", -1},
    {"[Infinity, N/A]", -1},
    {"tru", 0},
    {"truex", 0},
    {"nulll", 0},
    {"Nan", 0},
    {"01", 0},
    {"+1", 0},
    {"1.", 0},
    {".5", 0},
    {"-", 0},
    {"1e", 0},
    {"0x10", 0},
    {"'a'", 0},
    {"[1,]", 3},
    {"[1 2]", 3},
    {"[}", 1},
    {"[1, tru]", 4},
    {"{\"a\":1,}", 7},
    {"{\"a\" 1}", 5},
    {"{1:2}", 1},
    {"{\"a\":[1}", 7},
    {"\"bad\\x\"", 4},
    {"\"\\u12g4\"", 1},
};

/* The places a value can be, as printf formats with one %s. */
static const char *const places[] = {
    /* a member of a kept event that is cut before cJSON */
    "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\","
    "\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"args\":{\"foo\": %s}}]}",
    /* an arg we read */
    "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\","
    "\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"args\":{\"stream\": %s}}]}",
    /* a top-level member of an event */
    "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\","
    "\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"x\":%s}]}",
    /* an event we skip unparsed */
    "{\"traceEvents\":[{\"ph\":\"M\",\"name\":\"n\",\"pid\":1,"
    "\"args\":{\"name\":%s}}]}",
    /* a skipped top-level value */
    "{\"other\": %s, \"traceEvents\":[]}",
    /* a captured top-level value */
    "{\"traceEvents\":[], \"distributedInfo\": %s}",
    /* a bare array */
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,"
    "\"args\":{\"foo\":%s}}]",
};

#define N_CASES (sizeof(cases) / sizeof(cases[0]))
#define N_PLACES (sizeof(places) / sizeof(places[0]))

/* Append n bytes at *w. */
static void
put(char **w, const char *s, size_t n)
{
    memcpy(*w, s, n);
    *w += n;
}

/* The document of case c at `place` (its "%s" replaced), with `pad` bytes
 * of padding in a top-level string before the rest (objects only); *at is
 * where the value starts. */
static char *
doc(const struct jcase *c, const char *place, size_t pad, size_t *len,
    size_t *at)
{
    const char *hole = strstr(place, "%s");
    size_t n = strlen(place) + strlen(c->v) + pad + 16;
    char *d = malloc(n), *w = d;

    assert_non_null(d);
    assert_non_null(hole);
    if (pad > 0) {
        assert_true(place[0] == '{');
        put(&w, "{\"pad\":\"", 8);
        memset(w, 'p', pad);
        w += pad;
        put(&w, "\",", 2);
        place++;
    }
    put(&w, place, (size_t)(hole - place));
    *at = (size_t)(w - d);
    put(&w, c->v, strlen(c->v));
    put(&w, hole + 2, strlen(hole + 2));
    *len = (size_t)(w - d);
    return d;
}

/* The outcome must be the case's: OK, or PR_E_FORMAT naming the byte. */
static void
check(const struct jcase *c, size_t at, const char *how, enum pr_status st,
      const char *msg)
{
    char want[40];

    if (c->bad < 0) {
        if (st != PR_OK)
            fail_msg("%s: %s: refused: %s", how, c->v, msg);
        return;
    }
    snprintf(want, sizeof(want), "byte %zu:", at + (size_t)c->bad);
    if (st != PR_E_FORMAT || strstr(msg, want) == NULL)
        fail_msg("%s: %s: want PR_E_FORMAT \"%s\", got %d: %s", how, c->v, want,
                 st, msg);
}

static void
check_mem(const struct jcase *c, const char *d, size_t len, size_t at,
          const char *how)
{
    struct pr_trace *t = NULL;
    struct pr_error err;
    enum pr_status st;

    pr_error_clear(&err);
    st = pr_reader_load_mem("t.json", d, len, NULL, &t, &err);
    check(c, at, how, st, err.msg);
    pr_trace_free(t);
}

static unsigned char *
gzip_mem(const char *s, size_t n, size_t *out_n)
{
    uLong cap = compressBound((uLong)n) + 64;
    unsigned char *out = malloc(cap);
    z_stream z;

    assert_non_null(out);
    memset(&z, 0, sizeof(z));
    assert_int_equal(
        deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (const Bytef *)s;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    *out_n = z.total_out;
    deflateEnd(&z);
    return out;
}

/* Parse each event as the reader's parser threads do. */
static enum pr_status
emit(void *ctx, uint64_t index, uint64_t offset, const char *text, size_t len,
     struct pr_error *err)
{
    return pr_recs_add_event(ctx, text, len, index, offset, err);
}

/* Fed a byte at a time, so every state meets a chunk boundary. */
static enum pr_status
by_bytes(const char *d, size_t len, struct pr_error *err)
{
    struct pr_recs r;
    struct pr_split s;
    enum pr_status st = PR_OK;
    size_t i;

    pr_recs_init(&r);
    pr_split_init(&s, emit, &r);
    for (i = 0; i < len && st == PR_OK; i++)
        st = pr_split_feed(&s, d + i, 1, err);
    if (st == PR_OK)
        st = pr_split_finish(&s, err);
    pr_split_free(&s);
    pr_recs_free(&r);
    return st;
}

static void
test_in_memory(void **state)
{
    size_t i, j, len, at;

    (void)state;
    for (i = 0; i < N_CASES; i++) {
        for (j = 0; j < N_PLACES; j++) {
            char *d = doc(&cases[i], places[j], 0, &len, &at);
            struct pr_error err;
            size_t gn;
            unsigned char *gz = gzip_mem(d, len, &gn);

            check_mem(&cases[i], d, len, at, "memory");
            check_mem(&cases[i], (const char *)gz, gn, at, "gzip");
            pr_error_clear(&err);
            check(&cases[i], at, "bytewise", by_bytes(d, len, &err), err.msg);
            free(gz);
            free(d);
        }
    }
}

/* A file whose first read ends one byte into the value. */
static void
test_big_file(void **state)
{
    char path[] = "/tmp/pr-test-json-XXXXXX";
    size_t i, j, len, at;
    int fd = mkstemp(path);

    (void)state;
    assert_true(fd >= 0);
    close(fd);
    for (i = 0; i < N_CASES; i++) {
        for (j = 0; j < N_PLACES; j++) {
            char *d;
            struct pr_trace *t = NULL;
            struct pr_error err;
            enum pr_status st;
            FILE *f;

            size_t at0 = (size_t)(strstr(places[j], "%s") - places[j]);

            if (places[j][0] != '{')
                continue;
            /* the value starts at the last byte of the first read */
            d = doc(&cases[i], places[j], CHUNK - 10 - at0, &len, &at);
            assert_true(at == CHUNK - 1);
            f = fopen(path, "wb");
            assert_non_null(f);
            assert_int_equal(fwrite(d, 1, len, f), len);
            assert_int_equal(fclose(f), 0);
            pr_error_clear(&err);
            st = pr_reader_load(path, NULL, &t, &err);
            check(&cases[i], at, "file", st, err.msg);
            pr_trace_free(t);
            free(d);
        }
    }
    unlink(path);
}

/* ------------------------------------------------------------ splitting */

/* What the splitter handed over, one event at a time. */
struct cut {
    uint64_t off[64];
    size_t len[64];
    size_t n;
};

static enum pr_status
record(void *ctx, uint64_t index, uint64_t offset, const char *text, size_t len,
       struct pr_error *err)
{
    struct cut *c = ctx;

    (void)text;
    (void)err;
    assert_int_equal(index, c->n);
    assert_true(c->n < 64);
    c->off[c->n] = offset;
    c->len[c->n++] = len;
    return PR_OK;
}

/* The events of d (after its "[") the plain way: a byte at a time, a
 * backslash escaping the next byte inside strings only. */
static void
reference(const char *d, size_t len, size_t from, struct cut *c)
{
    size_t i = from, start = 0;
    int depth = 0, in_str = 0, esc = 0;

    c->n = 0;
    for (; i < len; i++) {
        char ch = d[i];

        if (in_str) {
            in_str = esc || ch != '"';
            esc = !esc && ch == '\\';
        } else if (ch == '"') {
            in_str = 1;
        } else if (ch == '{' || ch == '[') {
            if (depth++ == 0)
                start = i;
        } else if ((ch == '}' || ch == ']') && depth > 0 && --depth == 0) {
            c->off[c->n] = start;
            c->len[c->n++] = i + 1 - start;
        } else if (ch == ']' && depth == 0) {
            return;
        }
    }
}

/* Random string contents: runs of backslashes before quotes and letters,
 * brackets, and lengths that cross the splitter's 64-byte blocks. */
static void
rand_string(char **w, unsigned *seed)
{
    static const char *const bits[] = {
        "a", "\\\\",    "\\\"", "\\\\\\\"",          "{", "}", "[",
        "]", "\\u00e9", "\\n",  "xyzxyzxyzxyzxyzxyz"};
    int n = (int)(rand_r(seed) % 40), i;

    put(w, "\"", 1);
    for (i = 0; i < n; i++) {
        const char *b = bits[rand_r(seed) % (sizeof(bits) / sizeof(bits[0]))];

        put(w, b, strlen(b));
    }
    put(w, "\"", 1);
}

/* One event: an object of strings, numbers and nested containers. */
static void
rand_event(char **w, unsigned *seed, int depth)
{
    int n = (int)(rand_r(seed) % 6), i;

    put(w, "{", 1);
    for (i = 0; i < n; i++) {
        int k = (int)(rand_r(seed) % 4);

        if (i > 0)
            put(w, ", ", 2);
        rand_string(w, seed);
        put(w, ": ", 2);
        if (k == 0 && depth < 4) {
            rand_event(w, seed, depth + 1);
        } else if (k == 1 && depth < 4) {
            put(w, "[", 1);
            rand_event(w, seed, depth + 1);
            put(w, ", 12.5e3]", 9);
        } else if (k == 2) {
            put(w, "-1234567890", 11);
        } else {
            rand_string(w, seed);
        }
    }
    put(w, "}", 1);
}

/* Feed d in pieces of `step` bytes (0: whole). */
static enum pr_status
split_by(const char *d, size_t len, size_t step, struct cut *c,
         struct pr_error *err)
{
    struct pr_split s;
    enum pr_status st = PR_OK;
    size_t i, n;

    c->n = 0;
    pr_split_init(&s, record, c);
    for (i = 0; i < len && st == PR_OK; i += n) {
        n = step == 0 || len - i < step ? len - i : step;
        st = pr_split_feed(&s, d + i, n, err);
    }
    if (st == PR_OK)
        st = pr_split_finish(&s, err);
    pr_split_free(&s);
    return st;
}

/* The splitter cuts events where a byte-at-a-time scan does, however the
 * document is fed: backslash runs of both parities, brackets in strings,
 * events across chunk boundaries. */
static void
test_split_random(void **state)
{
    static const size_t steps[] = {0, 1, 2, 7, 63, 64, 65, 100, 1000};
    unsigned seed = 17;
    int round;

    (void)state;
    for (round = 0; round < 300; round++) {
        char *d = malloc(1 << 20), *w = d;
        size_t len, i, k, from;
        struct cut want, got;
        struct pr_error err;
        int n = 1 + (int)(rand_r(&seed) % 8), e;

        assert_non_null(d);
        put(&w, "{\"traceEvents\": [", 17);
        from = (size_t)(w - d);
        for (e = 0; e < n; e++) {
            put(&w, e > 0 ? ",\n  " : "\n  ", e > 0 ? 4 : 3);
            rand_event(&w, &seed, 0);
        }
        put(&w, "]}", 2);
        len = (size_t)(w - d);
        reference(d, len, from, &want);
        assert_int_equal(want.n, (size_t)n);
        for (k = 0; k < sizeof(steps) / sizeof(steps[0]); k++) {
            pr_error_clear(&err);
            if (split_by(d, len, steps[k], &got, &err) != PR_OK)
                fail_msg("round %d step %zu: %s", round, steps[k], err.msg);
            assert_int_equal(got.n, want.n);
            for (i = 0; i < want.n; i++) {
                assert_int_equal(got.off[i], want.off[i]);
                assert_int_equal(got.len[i], want.len[i]);
            }
        }
        free(d);
    }
}

/* A backslash outside strings is not JSON, but where the event ends (and
 * so the error that follows) must not depend on how the splitter reads:
 * after it, a quote still opens a string. */
static void
test_split_stray_backslash(void **state)
{
    static const char *const docs[] = {
        "{\"traceEvents\":[{\"a\": \\\"}\"}, {\"b\": 1}]}",
        "{\"traceEvents\":[{\"a\": \\\\\"]\" }, {}]}",
        "{\"traceEvents\":[{\"a\": [\\]}, {\"pad\": "
        "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}]}",
    };
    static const size_t steps[] = {0, 1, 3, 64};
    size_t i, k, j;

    (void)state;
    for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
        size_t len = strlen(docs[i]);
        struct cut want, got;
        struct pr_error err;

        reference(docs[i], len, 16, &want);
        for (k = 0; k < sizeof(steps) / sizeof(steps[0]); k++) {
            pr_error_clear(&err);
            if (split_by(docs[i], len, steps[k], &got, &err) != PR_OK)
                fail_msg("doc %zu step %zu: %s", i, steps[k], err.msg);
            assert_int_equal(got.n, want.n);
            for (j = 0; j < want.n; j++) {
                assert_int_equal(got.off[j], want.off[j]);
                assert_int_equal(got.len[j], want.len[j]);
            }
        }
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_memory),
        cmocka_unit_test(test_big_file),
        cmocka_unit_test(test_split_random),
        cmocka_unit_test(test_split_stray_backslash),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
