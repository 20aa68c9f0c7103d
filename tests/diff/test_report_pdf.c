/* test_report_pdf.c - the diff and trend PDFs: a gated diff becomes a
 * complete PDF, the same input and SOURCE_DATE_EPOCH give the same bytes,
 * and a write that cannot happen leaves no file and says why. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../src/diff/internal.h"
#include "profreport/diff.h"

#include "row_keys.h"

/* A one-run summary with n steps around step_us and one operator with a
 * kernel name full of characters a PDF string must survive. */
static cJSON *
summary(double step_us, double mm_us, const char *extra_op)
{
    static const double jitter[] = {0, 1.5, -2, 3, -1, 0.5, 2, -3};
    cJSON *s = cJSON_CreateObject(), *runs, *run, *arr, *o;
    size_t i;

    cJSON_AddNumberToObject(s, "schema_version", 1);
    runs = cJSON_AddArrayToObject(s, "runs");
    run = cJSON_CreateObject();
    cJSON_AddItemToArray(runs, run);
    cJSON_AddStringToObject(run, "worker", "worker0");
    arr = cJSON_AddArrayToObject(run, "steps");
    for (i = 0; i < 8; i++) {
        o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "duration_us",
                                step_us * (1 + jitter[i] / 100));
        step_keys(o);
        cJSON_AddItemToArray(arr, o);
    }
    o = cJSON_AddObjectToObject(run, "step_summary");
    cJSON_AddNumberToObject(o, "count", 8);
    cJSON_AddNumberToObject(o, "mean_us", step_us);
    arr = cJSON_AddArrayToObject(run, "operators");
    o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", "aten::mm<float, \xC3\xA9\x01>");
    cJSON_AddNumberToObject(o, "device_self_us", mm_us * 8);
    op_keys(o);
    cJSON_AddItemToArray(arr, o);
    if (extra_op != NULL) {
        o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", extra_op);
        cJSON_AddNumberToObject(o, "device_self_us", 800);
        op_keys(o);
        cJSON_AddItemToArray(arr, o);
    }
    return s;
}

/* A gated diff of a 20% slowdown with a new operator. */
static cJSON *
slow_diff(void)
{
    cJSON *base = summary(100000, 40000, NULL);
    cJSON *cur = summary(120000, 60000, "aten::softmax");
    cJSON *diff = NULL;
    struct pr_diff_opts o;
    struct pr_error err;
    size_t failed = 0;

    pr_error_clear(&err);
    pr_diff_opts_init(&o);
    assert_int_equal(
        pr_diff_compare(base, cur, "base.json", "slow.json", &o, &diff, &err),
        PR_OK);
    assert_int_equal(pr_diff_gate(diff, NULL, 0, &o, &failed, &err), PR_OK);
    assert_int_equal(failed, 1);
    cJSON_Delete(base);
    cJSON_Delete(cur);
    return diff;
}

/* The whole file in a new buffer; NULL when it cannot be read. */
static char *
slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;

    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void
tmp_name(char *buf, size_t n, const char *leaf)
{
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

    snprintf(buf, n, "%s/test_report_pdf.%ld.%s", dir, (long)getpid(), leaf);
}

static void
test_diff_pdf_is_complete(void **state)
{
    cJSON *diff = slow_diff();
    struct pr_error err;
    char path[512];
    size_t len = 0;
    char *pdf;

    (void)state;
    pr_error_clear(&err);
    tmp_name(path, sizeof(path), "a.pdf");
    assert_int_equal(pr_diff_pdf(diff, 15, path, &err), PR_OK);
    pdf = slurp(path, &len);
    assert_non_null(pdf);
    assert_true(len > 1000);
    assert_memory_equal(pdf, "%PDF-", 5);
    pdf[len] = '\0';
    assert_non_null(strstr(pdf + len - 32, "%%EOF"));
    /* compressed streams and an outline (bookmarks) */
    assert_non_null(strstr(pdf, "/FlateDecode"));
    assert_non_null(strstr(pdf, "/Outlines"));
    free(pdf);
    unlink(path);
    cJSON_Delete(diff);
}

static void
test_same_epoch_same_bytes(void **state)
{
    cJSON *diff = slow_diff();
    struct pr_error err;
    char a[512], b[512];
    size_t la = 0, lb = 0;
    char *pa, *pb;

    (void)state;
    pr_error_clear(&err);
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    tmp_name(a, sizeof(a), "r1.pdf");
    tmp_name(b, sizeof(b), "r2.pdf");
    assert_int_equal(pr_diff_pdf(diff, 15, a, &err), PR_OK);
    assert_int_equal(pr_diff_pdf(diff, 15, b, &err), PR_OK);
    pa = slurp(a, &la);
    pb = slurp(b, &lb);
    assert_non_null(pa);
    assert_non_null(pb);
    assert_int_equal(la, lb);
    assert_memory_equal(pa, pb, la);
    pa[la] = '\0';
    assert_non_null(strstr(pa, "D:20231114221320Z")); /* the epoch's date */
    free(pa);
    free(pb);
    unlink(a);
    unlink(b);
    unsetenv("SOURCE_DATE_EPOCH");
    cJSON_Delete(diff);
}

static void
test_failed_write_leaves_nothing(void **state)
{
    cJSON *diff = slow_diff();
    struct pr_error err;
    char dir[512], path[600];
    struct stat sb;

    (void)state;
    pr_error_clear(&err);
    tmp_name(dir, sizeof(dir), "missing");
    snprintf(path, sizeof(path), "%s/d.pdf", dir);
    assert_int_equal(pr_diff_pdf(diff, 15, path, &err), PR_E_IO);
    assert_non_null(strstr(err.msg, "d.pdf"));
    assert_int_not_equal(stat(path, &sb), 0);
    pr_error_clear(&err);
    assert_int_equal(pr_diff_pdf(diff, 15, "-", &err), PR_E_USAGE);
    assert_non_null(strstr(err.msg, "standard output"));
    cJSON_Delete(diff);
}

static void
test_not_an_object(void **state)
{
    cJSON *arr = cJSON_CreateArray();
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(pr_diff_pdf(arr, 15, "/tmp/never.pdf", &err), PR_E_FORMAT);
    pr_error_clear(&err);
    assert_int_equal(pr_trend_pdf(arr, "/tmp/never.pdf", &err), PR_E_FORMAT);
    cJSON_Delete(arr);
}

/* A hand-made trend tree (cmd_trend.c's keys): two nights, the second
 * crossed. */
static void
test_trend_pdf(void **state)
{
    const char *json =
        "{\"trend_version\":1,\"top_operators\":[\"aten::mm\"],\"nights\":["
        "{\"label\":\"a.json\",\"step_mean_us\":100,\"step_p90_us\":110,"
        "\"memory_peak_bytes\":1e9,\"breakdown_us\":{\"kernel\":80},"
        "\"operators_us\":{\"aten::mm\":40},\"crossed\":false},"
        "{\"label\":\"b.json\",\"step_mean_us\":130,\"step_p90_us\":140,"
        "\"memory_peak_bytes\":1.2e9,\"breakdown_us\":{\"kernel\":110},"
        "\"operators_us\":{\"aten::mm\":70},\"crossed\":true,\"gates\":["
        "{\"rule\":\"step.mean>+5%\",\"result\":\"fail\",\"detail\":\"+30%\"}"
        "]}]}";
    cJSON *t = cJSON_Parse(json);
    struct pr_error err;
    char path[512];
    size_t len = 0;
    char *pdf;

    (void)state;
    assert_non_null(t);
    pr_error_clear(&err);
    tmp_name(path, sizeof(path), "t.pdf");
    assert_int_equal(pr_trend_pdf(t, path, &err), PR_OK);
    pdf = slurp(path, &len);
    assert_non_null(pdf);
    assert_memory_equal(pdf, "%PDF-", 5);
    free(pdf);
    unlink(path);
    cJSON_Delete(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diff_pdf_is_complete),
        cmocka_unit_test(test_same_epoch_same_bytes),
        cmocka_unit_test(test_failed_write_leaves_nothing),
        cmocka_unit_test(test_not_an_object),
        cmocka_unit_test(test_trend_pdf),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
