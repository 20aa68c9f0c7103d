/* test_discover.c - worker/span naming as the TensorBoard plugin does it
 * (spec/tb-plugin-semantics.md §1.2), and folder scanning. */
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

#include "profreport/discover.h"

static void
check_name(const char *base, int match, const char *worker, const char *span)
{
    char *w = NULL, *s = NULL;

    assert_int_equal(pr_discover_name(base, &w, &s), match);
    assert_string_equal(w, worker);
    if (span == NULL)
        assert_null(s);
    else
        assert_string_equal(s, span);
    free(w);
    free(s);
}

static void
test_plugin_examples(void **state)
{
    (void)state;
    check_name("worker0.1623143089861.pt.trace.json.gz", 1, "worker0",
               "1623143089861");
    check_name("rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", 1,
               "rank-34.Jul_15_10_52_41", "1074");
    check_name("w.12.34.pt.trace.json", 1, "w.12", "34");
    check_name("host_123.pt.trace.json", 1, "host_123", NULL);
    check_name(".pt.trace.json", 1, "", NULL);
    check_name("w..pt.trace.json", 1, "w.", NULL);
}

static void
test_plain_json_names(void **state)
{
    (void)state;
    check_name("nccl_data.json.gz", 0, "nccl_data", NULL);
    check_name("trace.json", 0, "trace", NULL);
    check_name("notes.txt", 0, "notes.txt", NULL);
}

static void
touch(const char *path)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fclose(f);
}

static void
test_folder_scan_sorted_and_filtered(void **state)
{
    char dir[] = "/tmp/pr_discover_XXXXXX";
    char path[256];
    struct pr_input_list l = {0};
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/b.2.pt.trace.json", dir);
    touch(path);
    snprintf(path, sizeof(path), "%s/a.1.pt.trace.json.gz", dir);
    touch(path);
    snprintf(path, sizeof(path), "%s/readme.txt", dir);
    touch(path);
    assert_int_equal(pr_discover(dir, &l, &err), PR_OK);
    assert_int_equal(l.n, 2);
    assert_string_equal(l.files[0].worker, "a");
    assert_string_equal(l.files[0].span, "1");
    assert_string_equal(l.files[1].worker, "b");
    assert_true(l.files[1].from_dir);
    pr_input_list_free(&l);
    snprintf(path, sizeof(path), "rm -rf '%s'", dir);
    assert_int_equal(system(path), 0);
}

static void
test_missing_and_empty(void **state)
{
    char dir[] = "/tmp/pr_discover_XXXXXX";
    struct pr_input_list l = {0};
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(pr_discover("/nonexistent/x.json", &l, &err), PR_E_IO);
    assert_non_null(strstr(err.msg, "/nonexistent/x.json"));
    assert_non_null(mkdtemp(dir));
    pr_error_clear(&err);
    assert_int_equal(pr_discover(dir, &l, &err), PR_E_IO);
    assert_non_null(strstr(err.msg, "no trace files"));
    rmdir(dir);
    pr_input_list_free(&l);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plugin_examples),
        cmocka_unit_test(test_plain_json_names),
        cmocka_unit_test(test_folder_scan_sorted_and_filtered),
        cmocka_unit_test(test_missing_and_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
