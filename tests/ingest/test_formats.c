/* test_formats.c - the format table: which row claims what content (and
 * how sure it is), ties by row order, the descriptions of content nobody
 * claims, and every row's loader through the table. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "profreport/formats.h"

static struct pr_probe
probe(const char *base, const char *head)
{
    struct pr_probe p;

    memset(&p, 0, sizeof(p));
    p.path = base;
    p.base = base;
    p.head = head;
    p.n_head = head ? strlen(head) : 0;
    p.whole = 1;
    return p;
}

/* The row that wins for (base, head), or "-" for none, and its claim. */
static void
check(const char *base, const char *head, const char *want,
      enum pr_claim want_claim)
{
    struct pr_probe p = probe(base, head);
    enum pr_claim c;
    const struct pr_format *f =
        pr_formats_pick(pr_formats_builtin(), &p, PR_CLAIM_NAME, &c);

    if (strcmp(f ? f->name : "-", want) != 0 || c != want_claim)
        fail_msg("%s %.30s: want %s (%d), got %s (%d)", base,
                 head ? head : "(null)", want, want_claim, f ? f->name : "-",
                 c);
}

/* The builtin row named `name` and its position; fails when absent. */
static const struct pr_format *
row(const char *name, size_t *pos)
{
    const struct pr_format_table *t = pr_formats_builtin();
    size_t i;

    for (i = 0; i < t->n; i++) {
        if (strcmp(t->v[i]->name, name) == 0) {
            if (pos != NULL)
                *pos = i;
            return t->v[i];
        }
    }
    fail_msg("no format row %s", name);
    return NULL;
}

static void
test_builtin_rows(void **state)
{
    const struct pr_format_table *t = pr_formats_builtin();
    size_t k, c;

    (void)state;
    /* Kineto before Chrome, and Kineto is the first row to read pipes
       (formats that are Chrome traces of their own come before both) */
    assert_true(t->n >= 2);
    assert_non_null(row("kineto", &k));
    assert_non_null(row("chrome", &c));
    assert_true(k < c);
    assert_ptr_equal(pr_formats_streaming(t), t->v[k]);
}

static void
test_sniff_json(void **state)
{
    (void)state;
    check("a.bin", "{\"schemaVersion\": 1, \"traceEvents\": [", "kineto",
          PR_CLAIM_SURE);
    check("a.bin", "\xef\xbb\xbf \n{\"deviceProperties\": []", "kineto",
          PR_CLAIM_SHAPE);
    check("a.bin", "[{\"name\": \"x\", \"ph\": \"X\"", "chrome", PR_CLAIM_SURE);
    check("a.bin", "  [1, 2]", "chrome", PR_CLAIM_SHAPE);
    /* torch.profiler's raw memory timeline: rows of numbers */
    check("a.raw.gz", "[[-1, 1, 37888, 7], [-1, 1, 512, 7]", "memory_timeline",
          PR_CLAIM_SURE);
    check("a.bin", "[\n [ 1696966047096061874, 2, 512, 4]", "memory_timeline",
          PR_CLAIM_SURE);
    check("a.bin", "[[\"a\", 1]]", "chrome", PR_CLAIM_SHAPE);
    /* content that is no JSON container: the name decides */
    check("a.json", "\x8c garbage", "kineto", PR_CLAIM_NAME);
    check("a.json.gz", "", "kineto", PR_CLAIM_NAME);
    check("a.json", NULL, "kineto", PR_CLAIM_NAME);
    check("a.txt", "garbage", "-", PR_CLAIM_NO);
    /* MegEngine: Chrome traces with the interpreter's own names */
    check("1.chrome_timeline.json",
          "{\"traceEvents\":[{\"name\":\"OpDispatch\",\"ph\":\"B\"",
          "megengine", PR_CLAIM_SURE);
    check("a.json", "[ {\"name\": \"CommandEnqueue\", \"ph\": \"X\"",
          "megengine", PR_CLAIM_SURE);
    check("a.json", "{ \"graph_exec\": { \"operator\": {", "megengine-static",
          PR_CLAIM_SURE);
    check("a.csv", "Step Id,Model ID,Task ID\n", "-", PR_CLAIM_NO);
    /* torch_npu's trace_view.json: string timestamps, its own names */
    check("a.bin",
          "[{\"ph\": \"X\", \"name\": \"aten::mm\", \"ts\": "
          "\"1736408883704643.212\"",
          "ascend_trace", PR_CLAIM_SURE);
    check("a.bin", "[{\"ph\":\"X\",\"ts\":\"17\"", "ascend_trace",
          PR_CLAIM_SURE);
    check("a.bin",
          "[{\"ph\": \"M\", \"args\": {\"name\": \"Ascend "
          "Hardware\"}}",
          "ascend_trace", PR_CLAIM_SURE);
    check("a.bin", "[{\"ph\": \"X\", \"ts\": 17, \"name\": \"\\\"ts\\\"\"",
          "chrome", PR_CLAIM_SURE);
    /* msprof: a CANN 6 timeline (before ascend_trace, which would take
       it for a trace_view), op_summary, msprof-analyze's cluster tables */
    check("a.bin",
          "[{\"ph\": \"M\", \"args\": {\"name\": \"Ascend "
          "Hardware\"}}, {\"ph\": \"M\", \"args\": {\"name\": "
          "\"Step Trace(Model ID:2)\"}}",
          "msprof", PR_CLAIM_SURE);
    check("a.csv",
          "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,Task Type,"
          "Task Start Time(us),Task Duration(us)\n",
          "msprof_op_summary", PR_CLAIM_SURE);
    check("a.csv", "Step,Type,Index,Computing\n", "msprof_cluster",
          PR_CLAIM_SURE);
}

static void
test_folders_unclaimed(void **state)
{
    struct pr_probe p = probe("rank0_ascend_pt", NULL);

    (void)state;
    p.is_dir = 1;
    assert_null(pr_formats_pick(pr_formats_builtin(), &p, PR_CLAIM_NAME, NULL));
}

static void
describe_as(const char *head, size_t n, int whole, int quote, const char *want)
{
    struct pr_probe p = probe("x", NULL);
    char out[80];

    p.head = head;
    p.n_head = n;
    p.whole = whole;
    pr_formats_describe(&p, quote, out, sizeof(out));
    assert_string_equal(out, want);
}

static void
describe(const char *head, size_t n, int whole, const char *want)
{
    describe_as(head, n, whole, 1, want);
}

static void
test_describe(void **state)
{
    char names[384];

    (void)state;
    describe("SQLite format 3\0\x10\0", 19, 0, "an SQLite database");
    describe("", 0, 1, "an empty file");
    describe("\x01\x02\x03xyz", 6, 1, "binary data");
    describe("Step Id,\"Name\"\r\n1,a", 19, 1,
             "text starting \"Step Id,'Name'\"");
    describe(NULL, 0, 0, "content that could not be read");
    /* a folder member's text: its kind, never its bytes (issue #35) */
    describe_as("Step Id,\"Name\"\r\n1,a", 19, 1, 0,
                "CSV text of no known table");
    describe_as("TOKEN=secret\n", 13, 1, 0, "text");
    describe_as(" {\"a\": 1}", 9, 1, 0, "JSON text of no trace format");
    describe_as("<html>", 6, 1, 0, "XML or HTML text");
    describe_as("", 0, 1, 0, "an empty file");
    pr_formats_names(pr_formats_builtin(), names, sizeof(names));
    /* in users' words, each once; internal ids never (issue #32) */
    assert_non_null(strstr(names, "PyTorch/Kineto trace, Chrome trace"));
    assert_non_null(strstr(names, "Nsight Systems SQLite export"));
    assert_non_null(strstr(names, "msprof PROF_ folder"));
    assert_non_null(strstr(names, "Ascend PyTorch or MindSpore profiler "
                                  "folder"));
    assert_non_null(strstr(names, "MegEngine profile"));
    assert_null(
        strstr(strstr(names, "MegEngine profile") + 1, "MegEngine profile"));
    assert_null(strstr(names, "kineto"));
    assert_null(strstr(names, "ascend_db"));
    assert_null(strstr(names, "msprof_cluster")); /* it reads none of it */
    assert_null(strstr(names, ", ,"));
    assert_null(strstr(names, "..."));
    /* a list that does not fit ends with "...", not half a name or a
     * dangling ", " (the 128-byte buffer once gave "msprof_cluster, )") */
    pr_formats_names(pr_formats_builtin(), names, 40);
    assert_true(strlen(names) < 40);
    assert_non_null(strstr(names, ", ..."));
    assert_string_equal(names + strlen(names) - 5, ", ...");
    pr_formats_names(pr_formats_builtin(), names, 4);
    assert_string_equal(names, "");
}

/* Each row's loader reads what its sniffer claims. */
static void
test_rows_load(void **state)
{
    static const char *const docs[] = {
        "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": "
        "\"aten::mm\", \"ts\": 1, \"dur\": 2}]}",
        "[{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", "
        "\"ts\": 1, \"dur\": 2}]",
    };
    const struct pr_format_table *t = pr_formats_builtin();
    const char *const want[] = {"kineto", "chrome"};
    size_t i;

    (void)state;
    for (i = 0; i < 2; i++) {
        char path[] = "/tmp/pr_formats_XXXXXX";
        int fd = mkstemp(path);
        struct pr_probe p = probe(path, docs[i]);
        const struct pr_format *f =
            pr_formats_pick(t, &p, PR_CLAIM_SHAPE, NULL);
        struct pr_trace *tr = NULL;
        struct pr_error err;

        assert_true(fd >= 0);
        assert_int_equal(write(fd, docs[i], strlen(docs[i])),
                         (ssize_t)strlen(docs[i]));
        close(fd);
        assert_ptr_equal(f, row(want[i], NULL));
        pr_error_clear(&err);
        assert_int_equal(f->load(path, NULL, &tr, &err), PR_OK);
        assert_int_equal(tr->n_events, 1);
        pr_trace_free(tr);
        unlink(path);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_rows),
        cmocka_unit_test(test_sniff_json),
        cmocka_unit_test(test_folders_unclaimed),
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_rows_load),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
