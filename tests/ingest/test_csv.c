/* test_csv.c - the shared CSV reader: RFC 4180 quoting (commas, doubled
 * quotes, line breaks inside quotes), CRLF and CR line ends, the Ascend
 * quirks (tab-suffixed numbers, triple-quoted shapes), header look-up by
 * name, short records, records across read chunks, and the errors. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/ingest/internal.h"

static struct pr_csv *
open_text(const char *text)
{
    struct pr_csv *c = NULL;
    struct pr_error err;

    pr_error_clear(&err);
    if (pr_csv_open_mem(text, strlen(text), &c, &err) != PR_OK)
        fail_msg("open failed: %s", err.msg);
    return c;
}

static void
next_ok(struct pr_csv *c)
{
    struct pr_error err;
    int got;

    pr_error_clear(&err);
    if (pr_csv_next(c, &got, &err) != PR_OK || !got)
        fail_msg("no record: %s", err.msg);
}

static void
at_end(struct pr_csv *c)
{
    struct pr_error err;
    int got = 1;

    pr_error_clear(&err);
    assert_int_equal(pr_csv_next(c, &got, &err), PR_OK);
    assert_false(got);
}

static void
test_quoting(void **state)
{
    struct pr_csv *c = open_text("name,shape,note\r\n"
                                 "a,\"1,2\",\"say \"\"hi\"\"\"\r\n"
                                 "b,\"two\nlines\",\r\n"
                                 "\"\",,\"x\"y\r\n");
    size_t n;

    (void)state;
    assert_int_equal(pr_csv_n_cols(c), 3);
    assert_string_equal(pr_csv_col_name(c, 2), "note");
    next_ok(c);
    assert_int_equal(pr_csv_n_fields(c), 3);
    assert_string_equal(pr_csv_field(c, 0, NULL), "a");
    assert_string_equal(pr_csv_field(c, 1, NULL), "1,2");
    assert_string_equal(pr_csv_field(c, 2, &n), "say \"hi\"");
    assert_int_equal(n, 8);
    assert_int_equal(pr_csv_line(c), 2);
    next_ok(c);
    assert_string_equal(pr_csv_field(c, 1, NULL), "two\nlines");
    assert_string_equal(pr_csv_field(c, 2, NULL), "");
    assert_int_equal(pr_csv_line(c), 3);
    next_ok(c);
    assert_string_equal(pr_csv_field(c, 0, NULL), "");
    assert_string_equal(pr_csv_field(c, 1, NULL), "");
    /* text after a closing quote is kept, as Python's csv does */
    assert_string_equal(pr_csv_field(c, 2, NULL), "xy");
    assert_int_equal(pr_csv_line(c), 5);
    at_end(c);
    pr_csv_close(c);
}

/* What torch_npu writes: a BOM, tab-suffixed times, shapes in triple
 * quotes, N/A, a last line without a line end. */
static void
test_ascend_quirks(void **state)
{
    struct pr_csv *c = open_text(
        "\xef\xbb\xbfStep Id,Name,Start Time(us)\t,Input Shapes\n"
        "\n"
        "50,Conv2D1,1736408883704643.212\t,\"\"\"32,1,224,224,8;64\"\"\"\n"
        "50,hcom_allReduce_,N/A,N/A");

    (void)state;
    assert_int_equal(pr_csv_col(c, "Step Id"), 0);
    assert_int_equal(pr_csv_col(c, "Start Time(us)"), 2);
    assert_int_equal(pr_csv_col(c, "Input Shapes"), 3);
    assert_int_equal(pr_csv_col(c, "Block Dim"), -1);
    next_ok(c);
    assert_string_equal(pr_csv_field(c, 2, NULL), "1736408883704643.212");
    assert_string_equal(pr_csv_field(c, 3, NULL), "\"32,1,224,224,8;64\"");
    assert_int_equal(pr_csv_line(c), 3);
    next_ok(c);
    assert_string_equal(pr_csv_field(c, 1, NULL), "hcom_allReduce_");
    assert_string_equal(pr_csv_field(c, 3, NULL), "N/A");
    at_end(c);
    pr_csv_close(c);
}

static void
test_short_rows_and_cr(void **state)
{
    struct pr_csv *c = open_text("a,b,c\rx\r1,2,3,4\r");
    size_t n = 9;

    (void)state;
    next_ok(c);
    assert_int_equal(pr_csv_n_fields(c), 1);
    assert_string_equal(pr_csv_field(c, 0, NULL), "x");
    /* columns the record lacks read as "", as do unknown ones */
    assert_string_equal(pr_csv_field(c, 2, &n), "");
    assert_int_equal(n, 0);
    assert_string_equal(pr_csv_field(c, -1, NULL), "");
    next_ok(c);
    assert_int_equal(pr_csv_n_fields(c), 4);
    assert_string_equal(pr_csv_field(c, 3, NULL), "4");
    at_end(c);
    pr_csv_close(c);
}

/* After pr_csv_skip_ragged, records of another field count than the
 * header's are passed by (their columns would be read shifted: review22a
 * #6) and named, with their label column, in the trace's data-quality
 * row. */
static void
test_ragged_skipped(void **state)
{
    struct pr_csv *c =
        open_text("id,name,start,dur\n"
                  "1,MatMul,10,5\n"
                  "2,FlashAttentionScore,20\n" /* its dur missing */
                  "3,Add,30,1,extra\n"
                  "4,Mul,40,2\n");
    struct pr_trace *t = pr_trace_new();
    const char *text;

    (void)state;
    assert_non_null(t);
    pr_csv_skip_ragged(c, 1);
    next_ok(c);
    assert_string_equal(pr_csv_field(c, 1, NULL), "MatMul");
    next_ok(c);
    assert_string_equal(pr_csv_field(c, 1, NULL), "Mul");
    assert_int_equal(pr_csv_line(c), 5);
    at_end(c);
    assert_int_equal(pr_csv_n_ragged(c), 2);
    assert_int_equal(pr_csv_note_ragged(c, t, "/x/y/kernel_details.csv"),
                     PR_OK);
    assert_int_equal(t->n_gaps, 1);
    assert_int_equal(t->gaps[0].count, 2);
    assert_string_equal(pr_trace_str(t, t->gaps[0].kind), "csv_ragged_rows");
    text = pr_trace_str(t, t->gaps[0].text);
    assert_non_null(strstr(text, "kernel_details.csv line 3: 3 fields, "
                                 "header 4 (FlashAttentionScore); line 4: 5 "
                                 "fields, header 4 (Add): the rows are not "
                                 "read"));
    pr_csv_close(c);
    pr_trace_free(t);
}

/* Records and quoted fields that span the source's 1 MiB chunks. */
static void
test_across_chunks(void **state)
{
    size_t rows = 60000, i, len = 0;
    size_t cap = rows * 40 + 64;
    char *text = malloc(cap);
    struct pr_csv *c;

    (void)state;
    assert_non_null(text);
    len += (size_t)snprintf(text, cap, "id,quoted\n");
    for (i = 0; i < rows; i++)
        len += (size_t)snprintf(text + len, cap - len,
                                "%zu,\"v,%zu\"\"\n\"\r\n", i, i * 3);
    c = NULL;
    {
        struct pr_error err;

        pr_error_clear(&err);
        assert_int_equal(pr_csv_open_mem(text, len, &c, &err), PR_OK);
    }
    for (i = 0; i < rows; i++) {
        char want[64];

        next_ok(c);
        snprintf(want, sizeof(want), "%zu", i);
        assert_string_equal(pr_csv_field(c, 0, NULL), want);
        snprintf(want, sizeof(want), "v,%zu\"\n", i * 3);
        assert_string_equal(pr_csv_field(c, 1, NULL), want);
        assert_int_equal(pr_csv_line(c), 2 + 2 * i);
    }
    at_end(c);
    pr_csv_close(c);
    free(text);
}

static void
test_errors(void **state)
{
    struct pr_csv *c = NULL;
    struct pr_error err;
    int got;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(pr_csv_open_mem("", 0, &c, &err), PR_E_NOT_FORMAT);
    assert_null(c);
    assert_non_null(strstr(err.msg, "no header line"));
    c = open_text("a,b\n1,\"open\n2,3\n");
    pr_error_clear(&err);
    assert_int_equal(pr_csv_next(c, &got, &err), PR_E_FORMAT);
    assert_string_equal(err.msg, "line 2: unterminated quoted field (the file "
                                 "ends inside it)");
    pr_csv_close(c);
    /* a name twice in the header (issue #35): which column holds the
       data cannot be told; empty names (trailing commas) may repeat */
    pr_error_clear(&err);
    c = NULL;
    assert_int_equal(
        pr_csv_open_mem("Name,Duration(us),Id,Name\n", 26, &c, &err),
        PR_E_FORMAT);
    assert_null(c);
    assert_string_equal(err.msg, "the header names column \"Name\" twice "
                                 "(columns 1 and 4): which one holds the "
                                 "data cannot be told");
    c = open_text("a,,b,,\n1,2,3,4,5\n");
    assert_int_equal(pr_csv_n_cols(c), 5);
    pr_csv_close(c);
    /* a NUL inside a field would cut the name short */
    pr_error_clear(&err);
    assert_int_equal(pr_csv_open_mem("a,b\n1,x\0y\n", 11, &c, &err), PR_OK);
    assert_int_equal(pr_csv_next(c, &got, &err), PR_E_FORMAT);
    assert_string_equal(err.msg, "line 2: a NUL byte inside a field (binary "
                                 "data, not CSV text)");
    pr_csv_close(c);
}

static void
test_too_many_fields(void **state)
{
    size_t n = PR_CSV_MAX_FIELDS + 2, i;
    char *text = malloc(2 * n + 8);
    struct pr_csv *c = NULL;
    struct pr_error err;

    (void)state;
    assert_non_null(text);
    memcpy(text, "h\n", 2);
    for (i = 0; i < n; i++) {
        text[2 + 2 * i] = 'x';
        text[3 + 2 * i] = ',';
    }
    text[2 + 2 * n - 1] = '\n';
    pr_error_clear(&err);
    assert_int_equal(pr_csv_open_mem(text, 2 + 2 * n, &c, &err), PR_OK);
    {
        int got;

        assert_int_equal(pr_csv_next(c, &got, &err), PR_E_LIMIT);
        assert_non_null(strstr(err.msg, "line 2: more than 4096 fields"));
    }
    pr_csv_close(c);
    free(text);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quoting),
        cmocka_unit_test(test_ascend_quirks),
        cmocka_unit_test(test_short_rows_and_cr),
        cmocka_unit_test(test_ragged_skipped),
        cmocka_unit_test(test_across_chunks),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_too_many_fields),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
