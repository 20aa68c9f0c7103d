/* cmd.h - the commands of the command line, as a table (tmux): each lives
 * in src/cli/cmd_<name>.c and exports one const entry; adding a command is
 * one file and one line in src/cli/cmds.c.  A command parses its own
 * options and runs; it never prints an error and never ends the process:
 * main does both, from the status and message it returns. */
#ifndef PROFREPORT_CMD_H
#define PROFREPORT_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "profreport/error.h"

/* What a command asks main to do besides reporting its status. */
struct pr_cmd_ctl {
    int want_help;        /* print the usage of help_for (else the command) */
    int want_version;     /* print the version */
    const char *help_for; /* borrowed: a command name for `help CMD` */
    int exit_code;        /* >= 0: the exit status (record passes its
                             command's through); -1: from the status */
};

struct pr_cmd {
    const char *name;    /* "diff"; "" for the default report command */
    const char *summary; /* one line for the command list */
    const char *usage;   /* the whole --help text */
    /* argv[0] is the command's name (the program for the default
     * command).  Returns PR_OK, or an error with err's message set;
     * PR_E_REGRESSION when a gate tripped. */
    enum pr_status (*run)(int argc, char **argv, struct pr_cmd_ctl *ctl,
                          struct pr_error *err);
    /* optional: text to show under a usage error (e.g. a grammar); NULL
     * for the default "Try 'profreport CMD --help'" */
    const char *(*hint)(const struct pr_error *err);
    /* optional: more of the --help text, made from the program's own
     * tables (table's column ids); NULL for none */
    void (*more_help)(FILE *out);
};

extern const struct pr_cmd pr_cmd_report, pr_cmd_table, pr_cmd_diff,
    pr_cmd_trend, pr_cmd_record, pr_cmd_help;

/* The table, in the order the command list shows; NULL-terminated. */
extern const struct pr_cmd *const pr_cmds[];

/* The command called `name`, or NULL. */
const struct pr_cmd *pr_cmd_find(const char *name);

/* The command whose name is closest to `name` (a typo: at most two edits
 * away, or a prefix of it), or NULL. */
const struct pr_cmd *pr_cmd_suggest(const char *name);

/* Pick the command of argv: argv[1] when it names one, else the default
 * report command (argv[1] is then an option or an input path).  A word
 * that is neither a command nor an existing path but close to a command
 * is a usage error that suggests it.  *shift receives how many argv
 * entries the command name took (0 or 1). */
PR_NODISCARD enum pr_status pr_cmd_select(int argc, char **argv,
                                          const struct pr_cmd **out, int *shift,
                                          struct pr_error *err);

#endif
