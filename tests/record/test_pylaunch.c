/* test_pylaunch.c - the command line of a record run through
 * torch.profiler: which commands are Python, how the interpreter's own
 * options, the launcher and the script are laid out, the --steps check,
 * and the commands that run no script. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/pylaunch.h"

#define L "/share/profreport/profreport_torch.py"

/* The argv built for `command` (words separated by '|'), joined with '|'
 * into out; the status. */
static enum pr_status
build(const char *command, const struct pr_pylaunch *opts, char *out, size_t n,
      struct pr_error *err)
{
    char buf[512], *words[32], **argv = NULL;
    struct pr_pylaunch in = *opts;
    size_t k = 0, i;
    enum pr_status st;
    char *p;

    snprintf(buf, sizeof(buf), "%s", command);
    for (p = buf; k < 31; p++) {
        words[k++] = p;
        p = strchr(p, '|');
        if (p == NULL)
            break;
        *p = '\0';
    }
    words[k] = NULL;
    in.command = words;
    pr_error_clear(err);
    st = pr_pylaunch_argv(&in, &argv, err);
    out[0] = '\0';
    for (i = 0; st == PR_OK && argv[i] != NULL; i++) {
        size_t len = strlen(out);

        snprintf(out + len, n - len, "%s%s", i ? "|" : "", argv[i]);
    }
    pr_pylaunch_free(argv);
    return st;
}

static void
check(const char *command, const char *want)
{
    struct pr_pylaunch o = {NULL, L, "/tmp/run", NULL, 0, 0, 0, 0};
    struct pr_error err;
    char got[1024];

    if (build(command, &o, got, sizeof(got), &err) != PR_OK)
        fail_msg("%s: %s", command, err.msg);
    if (strcmp(got, want) != 0)
        fail_msg("%s:\n got  %s\n want %s", command, got, want);
}

static void
test_is_python(void **state)
{
    (void)state;
    assert_true(pr_pylaunch_is_python("python"));
    assert_true(pr_pylaunch_is_python("python3"));
    assert_true(pr_pylaunch_is_python("python3.11"));
    assert_true(pr_pylaunch_is_python("/usr/bin/python3"));
    assert_true(pr_pylaunch_is_python("./venv/bin/python"));
    assert_true(pr_pylaunch_is_python("python3.11d"));
    assert_true(pr_pylaunch_is_python("python3-dbg"));
    assert_false(pr_pylaunch_is_python("ipython"));
    assert_false(pr_pylaunch_is_python("python3-config"));
    assert_false(pr_pylaunch_is_python("torchrun"));
    assert_false(pr_pylaunch_is_python("./train"));
    assert_false(pr_pylaunch_is_python("/opt/python3/bin/nvcc"));
}

static void
test_script(void **state)
{
    (void)state;
    check("python3|train.py|--lr|3",
          "python3|" L "|--output|/tmp/run|--|train.py|--lr|3");
    /* the interpreter's options stay the interpreter's */
    check("/usr/bin/python3.11|-u|-X|dev|-W|ignore|-OO|train.py|a",
          "/usr/bin/python3.11|-u|-X|dev|-W|ignore|-OO|" L
          "|--output|/tmp/run|--|train.py|a");
    check("python|-Wignore::DeprecationWarning|-Xfrozen_modules=off|t.py",
          "python|-Wignore::DeprecationWarning|-Xfrozen_modules=off|" L
          "|--output|/tmp/run|--|t.py");
    check("python|--check-hash-based-pycs|never|t.py",
          "python|--check-hash-based-pycs|never|" L
          "|--output|/tmp/run|--|t.py");
    check("python|--|-odd-name.py|x",
          "python|--|" L "|--output|/tmp/run|--|-odd-name.py|x");
    /* the script's own options are never taken for the interpreter's */
    check("python3|train.py|-m|x|-c|y",
          "python3|" L "|--output|/tmp/run|--|train.py|-m|x|-c|y");
}

static void
test_module_and_code(void **state)
{
    (void)state;
    check("python3|-m|pkg.train|--epochs|1",
          "python3|" L "|--output|/tmp/run|--|-m|pkg.train|--epochs|1");
    check("python3|-mpkg.train", "python3|" L "|--output|/tmp/run|--|-m|"
                                 "pkg.train");
    check("python3|-u|-m|pkg", "python3|-u|" L "|--output|/tmp/run|--|-m|pkg");
    check("python3|-um|pkg", "python3|-u|" L "|--output|/tmp/run|--|-m|pkg");
    check("python3|-c|import torch|a",
          "python3|" L "|--output|/tmp/run|--|-c|import torch|a");
    check("python3|-Bcprint(1)",
          "python3|-B|" L "|--output|/tmp/run|--|-c|print(1)");
}

static void
test_launcher_options(void **state)
{
    struct pr_pylaunch o = {NULL, L, "/d", "0,2,5", 1, 1, 1, 1};
    struct pr_error err;
    char got[1024];

    (void)state;
    assert_int_equal(build("python3|t.py", &o, got, sizeof(got), &err), PR_OK);
    assert_string_equal(got, "python3|" L "|--output|/d|--steps|0,2,5|"
                             "--no-shapes|--no-memory|--no-stack|--quiet|"
                             "--|t.py");
}

static void
test_no_script(void **state)
{
    static const char *const bad[] = {"python3",    "python3|-",  "python3|-u",
                                      "python3|-m", "python3|-W", "python3|-c",
                                      "python3|--"};
    struct pr_pylaunch o = {NULL, L, "/d", NULL, 0, 0, 0, 0};
    struct pr_error err;
    char got[1024];
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (build(bad[i], &o, got, sizeof(got), &err) != PR_E_USAGE)
            fail_msg("%s: not a usage error", bad[i]);
        assert_non_null(strstr(err.msg, "record: "));
    }
    build("python3|-", &o, got, sizeof(got), &err);
    assert_non_null(strstr(err.msg, "runs no script"));
    build("python3|-W", &o, got, sizeof(got), &err);
    assert_non_null(strstr(err.msg, "-W needs a value"));
}

static void
test_steps(void **state)
{
    struct pr_error err;
    long v[3];

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(pr_pylaunch_steps("1,1,3", v, &err), PR_OK);
    assert_true(v[0] == 1 && v[1] == 1 && v[2] == 3);
    assert_int_equal(pr_pylaunch_steps("0,0,1", v, &err), PR_OK);
    assert_int_equal(pr_pylaunch_steps("10,2,100000", NULL, &err), PR_OK);
    assert_int_equal(pr_pylaunch_steps("1,1,0", v, &err), PR_E_USAGE);
    assert_non_null(strstr(err.msg, "'1,1,0'"));
    assert_int_equal(pr_pylaunch_steps("1,1", v, &err), PR_E_USAGE);
    assert_int_equal(pr_pylaunch_steps("1,1,3,4", v, &err), PR_E_USAGE);
    assert_int_equal(pr_pylaunch_steps("-1,1,3", v, &err), PR_E_USAGE);
    assert_int_equal(pr_pylaunch_steps("a,b,c", v, &err), PR_E_USAGE);
    assert_int_equal(pr_pylaunch_steps("1,,3", v, &err), PR_E_USAGE);
    assert_int_equal(pr_pylaunch_steps("1, 1,3", v, &err), PR_E_USAGE);
    assert_int_equal(pr_pylaunch_steps("1,1,100001", v, &err), PR_E_USAGE);
    assert_int_equal(pr_pylaunch_steps("99999999999999999999,1,1", v, &err),
                     PR_E_USAGE);
    assert_int_equal(pr_pylaunch_steps("", v, &err), PR_E_USAGE);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_is_python),
        cmocka_unit_test(test_script),
        cmocka_unit_test(test_module_and_code),
        cmocka_unit_test(test_launcher_options),
        cmocka_unit_test(test_no_script),
        cmocka_unit_test(test_steps),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
