/* cmd_help.c - `profreport help [COMMAND]`: the usage of a command, or the
 * overview; main prints it, as it prints every other usage. */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "profreport/cmd.h"

static const char usage[] =
    "Usage: profreport help [COMMAND]\n"
    "\n"
    "Prints the options of COMMAND (the same as 'profreport COMMAND\n"
    "--help'), or without one the report options and the list of\n"
    "commands.  The manual is 'man profreport'.\n";

static enum pr_status
run(int argc, char **argv, struct pr_cmd_ctl *ctl, struct pr_error *err)
{
    const struct pr_cmd *c, *near;

    if (argc > 2)
        return pr_error_set(err, PR_E_USAGE, "help: one command at most");
    ctl->want_help = 1;
    if (argc < 2) {
        ctl->help_for = "";
        return PR_OK;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        ctl->help_for = "help"; /* this text */
        return PR_OK;
    }
    c = pr_cmd_find(argv[1]);
    if (c != NULL) {
        ctl->help_for = c->name;
        return PR_OK;
    }
    near = pr_cmd_suggest(argv[1]);
    if (near != NULL)
        return pr_error_set(err, PR_E_USAGE,
                            "help: unknown command '%s'; did you mean '%s'?",
                            argv[1], near->name);
    return pr_error_set(err, PR_E_USAGE, "help: unknown command '%s'", argv[1]);
}

const struct pr_cmd pr_cmd_help = {
    "help", "show the options of a command", usage, run, NULL, NULL};
