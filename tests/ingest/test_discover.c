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
put(const char *dir, const char *name, const char *text)
{
    char path[512];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void
rm_rf(const char *dir)
{
    char cmd[512];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

#define TRACE "{\"traceEvents\": []}"

static void
test_folder_scan_sorted_and_filtered(void **state)
{
    char dir[] = "/tmp/pr_discover_XXXXXX";
    struct pr_input_list l = {0};
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_non_null(mkdtemp(dir));
    put(dir, "b.2.pt.trace.json", TRACE);
    put(dir, "a.1.pt.trace.json.gz", TRACE);
    put(dir, "readme.txt", "how this run was made\n");
    put(dir, ".hidden.json", TRACE);
    assert_int_equal(pr_discover(dir, &l, &err), PR_OK);
    assert_int_equal(l.n, 2);
    assert_string_equal(l.files[0].worker, "a");
    assert_string_equal(l.files[0].span, "1");
    assert_string_equal(l.files[0].format->name, "kineto");
    assert_string_equal(l.files[1].worker, "b");
    assert_true(l.files[1].from_dir);
    /* what no format reads is named with the reason, hidden files not */
    assert_int_equal(l.n_skipped, 1);
    assert_non_null(strstr(l.skipped[0].path, "/readme.txt"));
    assert_non_null(strstr(l.skipped[0].why, "not a format profreport reads "
                                             "(text; "));
    assert_null(strstr(l.skipped[0].why, "how this")); /* never its bytes */
    pr_input_list_free(&l);
    rm_rf(dir);
}

/* In a folder the content decides: a trace under any name is read, a file
 * named *.json that holds no JSON is skipped. */
static void
test_folder_by_content(void **state)
{
    char dir[] = "/tmp/pr_discover_XXXXXX";
    struct pr_input_list l = {0};
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_non_null(mkdtemp(dir));
    put(dir, "trace_view.txt", "[{\"ph\": \"X\", \"name\": \"a\"}]");
    put(dir, "notes.json", "Step Id,Name\n1,a\n");
    put(dir, "info.json", "{\"rank_id\": 0}");
    assert_int_equal(pr_discover(dir, &l, &err), PR_OK);
    assert_int_equal(l.n, 2);
    /* a JSON object goes to the reader, which says whether it is a trace */
    assert_non_null(strstr(l.files[0].path, "/info.json"));
    assert_string_equal(l.files[0].format->name, "kineto");
    assert_non_null(strstr(l.files[1].path, "/trace_view.txt"));
    assert_string_equal(l.files[1].format->name, "chrome");
    assert_int_equal(l.n_skipped, 1);
    assert_non_null(strstr(l.skipped[0].path, "/notes.json"));
    pr_input_list_free(&l);
    rm_rf(dir);
}

/* A file named explicitly: the content first, then the name; nothing
 * claims it: PR_E_NOT_FORMAT naming the file and what it holds. */
static void
test_explicit_files(void **state)
{
    char dir[] = "/tmp/pr_discover_XXXXXX", path[512];
    struct pr_input_list l = {0};
    struct pr_error err;

    (void)state;
    assert_non_null(mkdtemp(dir));
    put(dir, "damaged.json", "\x8c\x01garbage");
    put(dir, "kernels.csv", "Who,Knows\n");
    put(dir, "run.db", "SQLite format 3");
    snprintf(path, sizeof(path), "%s/damaged.json", dir);
    pr_error_clear(&err);
    /* by name: the reader will say what is wrong with it */
    assert_int_equal(pr_discover(path, &l, &err), PR_OK);
    assert_int_equal(l.n, 1);
    assert_false(l.files[0].from_dir);
    assert_string_equal(l.files[0].format->name, "kineto");
    snprintf(path, sizeof(path), "%s/kernels.csv", dir);
    assert_int_equal(pr_discover(path, &l, &err), PR_E_NOT_FORMAT);
    assert_non_null(strstr(err.msg, "kernels.csv: not a format profreport "
                                    "reads (text starting \"Who,Knows\"; "
                                    "it reads: "));
    assert_non_null(strstr(err.msg, "PyTorch/Kineto trace, Chrome trace"));
    assert_null(strstr(err.msg, "kineto,"));
    pr_error_clear(&err);
    snprintf(path, sizeof(path), "%s/run.db", dir);
    put(dir, "run.db", "");
    assert_int_equal(pr_discover(path, &l, &err), PR_E_NOT_FORMAT);
    assert_non_null(strstr(err.msg, "an empty file"));
    assert_int_equal(l.n, 1);
    pr_input_list_free(&l);
    rm_rf(dir);
}

/* A pipe cannot be read twice: it is not sniffed (nor opened, which would
 * block without a writer) and goes to the first format that streams. */
static void
test_pipe(void **state)
{
    char dir[] = "/tmp/pr_discover_XXXXXX", path[512];
    struct pr_input_list l = {0};
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/fifo", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_int_equal(pr_discover(path, &l, &err), PR_OK);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.files[0].format->name, "kineto");
    /* in a folder, a pipe is nobody's input */
    assert_int_equal(pr_discover(dir, &l, &err), PR_E_IO);
    assert_int_equal(l.n_skipped, 1);
    assert_string_equal(l.skipped[0].why, "not a regular file or folder");
    pr_input_list_free(&l);
    rm_rf(dir);
}

/* A format of our own: it claims folders named *_run whole, and files
 * holding "RUNFILE" by content. */
static enum pr_claim
sniff_run(const struct pr_probe *p)
{
    size_t n = strlen(p->base);

    if (p->is_dir)
        return n > 4 && strcmp(p->base + n - 4, "_run") == 0 ? PR_CLAIM_SURE
                                                             : PR_CLAIM_NO;
    return p->head != NULL && p->n_head >= 7 &&
                   memcmp(p->head, "RUNFILE", 7) == 0
               ? PR_CLAIM_SURE
               : PR_CLAIM_NO;
}

static enum pr_status
load_none(const char *path, const struct pr_read_opts *o, struct pr_trace **out,
          struct pr_error *err)
{
    (void)path;
    (void)o;
    *out = NULL;
    return pr_error_set(err, PR_E_NOT_FORMAT, "never loaded here");
}

static void
test_folder_claimed_whole(void **state)
{
    static const struct pr_format run = {"run", sniff_run, load_none, 0, NULL};
    const struct pr_format *rows[] = {&run, NULL};
    const struct pr_format_table *builtin = pr_formats_builtin();
    struct pr_format_table tab = {rows, 2};
    char dir[] = "/tmp/pr_discover_XXXXXX", sub[512];
    struct pr_input_list l = {0};
    struct pr_error err;
    size_t i;

    (void)state;
    for (i = 0; i < builtin->n; i++) /* kineto after it */
        if (strcmp(builtin->v[i]->name, "kineto") == 0)
            rows[1] = builtin->v[i];
    pr_error_clear(&err);
    assert_non_null(mkdtemp(dir));
    snprintf(sub, sizeof(sub), "%s/rank0_run", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    put(sub, "trace.json", TRACE); /* inside a claimed folder: not looked at */
    put(dir, "x.bin", "RUNFILE 1");
    put(dir, "y.json", TRACE);
    assert_int_equal(pr_discover_with(&tab, dir, &l, &err), PR_OK);
    assert_int_equal(l.n, 3);
    assert_non_null(strstr(l.files[0].path, "/rank0_run"));
    assert_string_equal(l.files[0].format->name, "run");
    assert_string_equal(l.files[0].worker, "rank0_run");
    assert_string_equal(l.files[1].format->name, "run");
    assert_string_equal(l.files[2].format->name, "kineto");
    /* the folder itself named explicitly: one input */
    pr_input_list_free(&l);
    assert_int_equal(pr_discover_with(&tab, sub, &l, &err), PR_OK);
    assert_int_equal(l.n, 1);
    assert_false(l.files[0].from_dir);
    pr_input_list_free(&l);
    rm_rf(dir);
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

/* Issue #17: symlinks in a run folder lead to each real file and folder
 * once; loops (to the folder itself, to its parent, through a subfolder)
 * are skipped with a warning instead of being followed MAX_DEPTH deep. */
static void
test_symlink_loops(void **state)
{
    char dir[] = "/tmp/pr_discover_XXXXXX", sub[64], p[128];
    struct pr_input_list l = {0};
    struct pr_error err;
    size_t i, loops = 0, same = 0;

    (void)state;
    pr_error_clear(&err);
    assert_non_null(mkdtemp(dir));
    put(dir, "a.pt.trace.json", TRACE);
    snprintf(sub, sizeof(sub), "%s/sub", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    put(sub, "b.pt.trace.json", TRACE);
    snprintf(p, sizeof(p), "%s/self", dir);
    assert_int_equal(symlink(".", p), 0);
    snprintf(p, sizeof(p), "%s/up", sub);
    assert_int_equal(symlink("..", p), 0);
    snprintf(p, sizeof(p), "%s/up2", sub);
    assert_int_equal(symlink(dir, p), 0);
    snprintf(p, sizeof(p), "%s/again.pt.trace.json", dir);
    assert_int_equal(symlink("a.pt.trace.json", p), 0);
    snprintf(p, sizeof(p), "%s/zz_sub_again", dir);
    assert_int_equal(symlink("sub", p), 0);
    assert_int_equal(pr_discover(dir, &l, &err), PR_OK);
    /* a.pt.trace.json, and sub/b.pt.trace.json: each read once */
    assert_int_equal(l.n, 2);
    assert_non_null(strstr(l.files[0].path, "/a.pt.trace.json"));
    assert_non_null(strstr(l.files[1].path, "/sub/b.pt.trace.json"));
    for (i = 0; i < l.n_skipped; i++) {
        loops += strstr(l.skipped[i].why, "a symlink loop") != NULL;
        same += strstr(l.skipped[i].why, "read once") != NULL;
    }
    /* self, sub/up and sub/up2 loop; again.pt.trace.json and zz_sub_again
     * are second ways to what was read */
    assert_int_equal(loops, 3);
    assert_int_equal(same, 2);
    assert_int_equal(l.n_skipped, 5);
    pr_input_list_free(&l);
    /* the same with the folder named "dir/" */
    snprintf(p, sizeof(p), "%s/", dir);
    assert_int_equal(pr_discover(p, &l, &err), PR_OK);
    assert_int_equal(l.n, 2);
    for (i = 0, loops = 0; i < l.n_skipped; i++)
        loops += strstr(l.skipped[i].why, "a symlink loop") != NULL;
    assert_int_equal(loops, 3);
    pr_input_list_free(&l);
    rm_rf(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plugin_examples),
        cmocka_unit_test(test_plain_json_names),
        cmocka_unit_test(test_folder_scan_sorted_and_filtered),
        cmocka_unit_test(test_folder_by_content),
        cmocka_unit_test(test_explicit_files),
        cmocka_unit_test(test_pipe),
        cmocka_unit_test(test_folder_claimed_whole),
        cmocka_unit_test(test_missing_and_empty),
        cmocka_unit_test(test_symlink_loops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
