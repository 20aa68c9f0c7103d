/* main.c - the whole program: pick the command from the table (cmd.h), run
 * it, then print what it asked for (usage, version) or its error.  The only
 * place that writes errors and ends the process. */
#include "config.h"

#include <stdio.h>

#include "profreport/cmd.h"
#include "profreport/escape.h"

static void
print_usage(const struct pr_cmd *c)
{
    size_t i;

    fputs(c->usage, stdout);
    if (c->more_help != NULL)
        c->more_help(stdout);
    if (c->name[0] != '\0')
        return;
    fputs("\nCommands:\n", stdout);
    for (i = 0; pr_cmds[i] != NULL; i++)
        if (pr_cmds[i]->name[0] != '\0')
            printf("  %-8s %s\n", pr_cmds[i]->name, pr_cmds[i]->summary);
    fputs("\n'profreport help COMMAND' (or COMMAND --help) shows a "
          "command's options;\n'man profreport' is the manual.\n"
          "\nExit status: 0 ok; 1 usage error; 2 bad or unreadable input, "
          "or an output\nthat cannot be written; 3 a diff gate tripped "
          "(trend --fail: the last\nnight crossed a limit); 4 diff "
          "compared nothing (inconclusive).\n",
          stdout);
}

static void
print_error(const struct pr_cmd *c, enum pr_status st,
            const struct pr_error *err)
{
    const char *hint = c->hint != NULL ? c->hint(err) : NULL;

    if (st == PR_OK || (st == PR_E_REGRESSION && err->msg[0] == '\0'))
        return;
    pr_term_printf(stderr, "profreport: %s\n",
                   err->msg[0] ? err->msg : pr_error_str(st));
    if (st != PR_E_USAGE)
        return;
    if (hint != NULL)
        fputs(hint, stderr);
    else
        fprintf(stderr, "Try 'profreport %s%s--help' for more information.\n",
                c->name, c->name[0] != '\0' ? " " : "");
}

/* `help CMD` names another command; "" is the overview. */
static const struct pr_cmd *
help_target(const struct pr_cmd_ctl *ctl, const struct pr_cmd *cmd)
{
    const struct pr_cmd *c;

    if (ctl->help_for == NULL)
        return cmd;
    c = pr_cmd_find(ctl->help_for);
    return c != NULL ? c : &pr_cmd_report;
}

int
main(int argc, char **argv)
{
    struct pr_cmd_ctl ctl = {0, 0, NULL, -1};
    const struct pr_cmd *cmd = NULL;
    struct pr_error err;
    enum pr_status st;
    int shift = 0;

    pr_error_clear(&err);
    st = pr_cmd_select(argc, argv, &cmd, &shift, &err);
    if (st == PR_OK)
        st = cmd->run(argc - shift, argv + shift, &ctl, &err);
    if (st == PR_OK && ctl.want_help)
        print_usage(help_target(&ctl, cmd));
    else if (st == PR_OK && ctl.want_version)
        printf("profreport %s\n", PACKAGE_VERSION);
    print_error(cmd, st, &err);
    return ctl.exit_code >= 0 ? ctl.exit_code : pr_error_exit_status(st);
}
