/* pylaunch.c - the command line of a record run through torch.profiler
 * (pylaunch.h): recognise a Python interpreter, split its own options from
 * what it runs, as CPython's option parser does, and put the launcher in
 * between.  Running it is launch.c's. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/pylaunch.h"

#define MAX_STEP 100000L

int
pr_pylaunch_is_python(const char *argv0)
{
    const char *base = strrchr(argv0, '/'), *p;

    base = base != NULL ? base + 1 : argv0;
    if (strncmp(base, "python", 6) != 0)
        return 0;
    for (p = base + 6; (*p >= '0' && *p <= '9') || *p == '.'; p++)
        ;
    /* debug and ABI-tagged builds: python3.11d, python3-dbg */
    return *p == '\0' || strcmp(p, "d") == 0 || strcmp(p, "-dbg") == 0;
}

/* One whole number of a --steps value, at *s; the end in *end. */
static int
step_num(const char *s, char **end, long lo, long *out)
{
    if (*s < '0' || *s > '9')
        return 0;
    errno = 0;
    *out = strtol(s, end, 10);
    return errno == 0 && *out >= lo && *out <= MAX_STEP;
}

enum pr_status
pr_pylaunch_steps(const char *text, long out[3], struct pr_error *err)
{
    long v[3];
    const char *s = text;
    char *end = NULL;
    int i;

    for (i = 0; i < 3; i++) {
        if (!step_num(s, &end, i == 2 ? 1 : 0, &v[i]) ||
            *end != (i < 2 ? ',' : '\0'))
            return pr_error_set(err, PR_E_USAGE,
                                "record: --steps wants WAIT,WARMUP,ACTIVE, "
                                "whole numbers with ACTIVE at least 1 "
                                "(got '%s')",
                                text);
        s = end + 1;
    }
    if (out != NULL)
        memcpy(out, v, sizeof(v));
    return PR_OK;
}

/* ------------------------------------------------------------ argv */

/* A growing argv of copies. */
struct vec {
    char **v;
    size_t n, cap;
    int failed;
};

static void
push(struct vec *a, const char *s)
{
    char *copy;

    if (a->failed)
        return;
    if (a->n + 2 > a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 16;
        char **v = realloc(a->v, cap * sizeof(*v));

        if (v == NULL) {
            a->failed = 1;
            return;
        }
        a->v = v;
        a->cap = cap;
    }
    copy = strdup(s);
    if (copy == NULL) {
        a->failed = 1;
        return;
    }
    a->v[a->n++] = copy;
    a->v[a->n] = NULL;
}

/* The interpreter's own options take a value ("-W ignore", "-Xdev")? */
static int
takes_value(char c)
{
    return c == 'W' || c == 'X';
}

/* Where the interpreter's own options end in cmd (index of the script,
 * or of -c / -m, which *target then names); -1 with a message in err
 * when it runs no script or an option has no value. */
static int
split_options(char **cmd, char *target, struct pr_error *err)
{
    int i, k;

    *target = 's';
    for (i = 1; cmd[i] != NULL; i++) {
        const char *a = cmd[i];

        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-' || a[1] == '\0')
            break; /* the script, or "-": stdin */
        if (a[1] == '-') {
            if (strcmp(a, "--check-hash-based-pycs") == 0 && cmd[++i] == NULL)
                break;
            continue;
        }
        for (k = 1; a[k] != '\0'; k++) {
            if (a[k] == 'c' || a[k] == 'm') {
                *target = a[k];
                return i;
            }
            if (takes_value(a[k])) {
                if (a[k + 1] == '\0' && cmd[++i] == NULL) {
                    pr_error_set(err, PR_E_USAGE,
                                 "record: python option -%c needs a value",
                                 a[k]);
                    return -1;
                }
                break;
            }
        }
    }
    if (cmd[i] == NULL || strcmp(cmd[i], "-") == 0) {
        pr_error_set(err, PR_E_USAGE,
                     "record: %s runs no script: give one (record -- "
                     "python3 train.py), -m MODULE or -c CODE",
                     cmd[0]);
        return -1;
    }
    return i;
}

/* The target of option argument cmd[i] ("-m", "-mpkg", "-um pkg"): the
 * -m or -c and its value, pushed as two words; the index after them. */
static int
push_target(struct vec *a, char **cmd, int i, char which, struct pr_error *err)
{
    const char *v = strchr(cmd[i] + 1, which) + 1;
    char opt[3] = {'-', which, '\0'};

    if (*v == '\0')
        v = cmd[++i];
    if (v == NULL) {
        pr_error_set(err, PR_E_USAGE,
                     "record: python option -%c needs a "
                     "value",
                     which);
        return -1;
    }
    push(a, opt);
    push(a, v);
    return i + 1;
}

/* The interpreter's flags that came in the same word as -c or -m
 * ("-uc"): kept for the interpreter, without the target. */
static void
push_leading_flags(struct vec *a, const char *word, char which)
{
    size_t n = (size_t)(strchr(word + 1, which) - word);
    char buf[64];

    if (n <= 1 || n >= sizeof(buf))
        return;
    memcpy(buf, word, n);
    buf[n] = '\0';
    push(a, buf);
}

static void
push_launcher(struct vec *a, const struct pr_pylaunch *in)
{
    push(a, in->launcher);
    push(a, "--output");
    push(a, in->out_dir);
    if (in->steps != NULL) {
        push(a, "--steps");
        push(a, in->steps);
    }
    if (in->no_shapes)
        push(a, "--no-shapes");
    if (in->no_memory)
        push(a, "--no-memory");
    if (in->no_stack)
        push(a, "--no-stack");
    if (in->quiet)
        push(a, "--quiet");
    push(a, "--");
}

enum pr_status
pr_pylaunch_argv(const struct pr_pylaunch *in, char ***argv,
                 struct pr_error *err)
{
    struct vec a = {NULL, 0, 0, 0};
    char target;
    int i, at = split_options(in->command, &target, err);

    *argv = NULL;
    if (at < 0)
        return err->code;
    for (i = 0; i < at; i++)
        push(&a, in->command[i]);
    if (target != 's')
        push_leading_flags(&a, in->command[at], target);
    push_launcher(&a, in);
    if (target != 's') {
        at = push_target(&a, in->command, at, target, err);
        if (at < 0) {
            pr_pylaunch_free(a.v);
            return err->code;
        }
    }
    for (i = at; in->command[i] != NULL; i++)
        push(&a, in->command[i]);
    if (a.failed) {
        pr_pylaunch_free(a.v);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    *argv = a.v;
    return PR_OK;
}

void
pr_pylaunch_free(char **argv)
{
    size_t i;

    for (i = 0; argv != NULL && argv[i] != NULL; i++)
        free(argv[i]);
    free(argv);
}
