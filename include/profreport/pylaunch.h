/* pylaunch.h - the command line of a `profreport record` run through
 * torch.profiler: a Python command (`python3 train.py ARGS`, `python3 -m
 * MODULE`, `python3 -c CODE`) rewritten to run the shipped launcher
 * (data/profreport_torch.py) with the script after it.  Pure functions:
 * launch.c runs what they build. */
#ifndef PROFREPORT_PYLAUNCH_H
#define PROFREPORT_PYLAUNCH_H

#include "profreport/error.h"

/* What the launcher is asked to do; pointers borrowed. */
struct pr_pylaunch {
    char **command;       /* the user's, NULL-terminated, command[0] set */
    const char *launcher; /* path of profreport_torch.py */
    const char *out_dir;  /* where the traces go */
    const char *steps;    /* "WAIT,WARMUP,ACTIVE"; NULL: the default */
    int no_shapes, no_memory, no_stack, quiet;
};

/* 1 when command[0] names a Python interpreter by its base name
 * ("python", "python3", "python3.11", "/usr/bin/python3-dbg"). */
int pr_pylaunch_is_python(const char *argv0);

/* Check a --steps value: three whole numbers "W,U,A", W and U >= 0, A >=
 * 1, each at most 100000; their values in out (may be NULL).
 * PR_E_USAGE with the reason. */
PR_NODISCARD enum pr_status pr_pylaunch_steps(const char *text, long out[3],
                                              struct pr_error *err);

/* The command to run: the interpreter and its own options as given, the
 * launcher and its options, "--", then the script (or -m MODULE, -c CODE)
 * and its arguments.  *argv receives a NULL-terminated array owned by the
 * caller (pr_pylaunch_free), every string a copy.  PR_E_USAGE when the
 * command names no script (stdin, the REPL) or an option lacks its value,
 * PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_pylaunch_argv(const struct pr_pylaunch *in,
                                             char ***argv,
                                             struct pr_error *err);
void pr_pylaunch_free(char **argv); /* accepts NULL */

#endif
