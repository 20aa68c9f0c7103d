/* cmds.c - the table of commands (cmd.h) and how argv picks one,
 * suggestions for typos included. */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include "profreport/cmd.h"
#include "profreport/near.h"

const struct pr_cmd *const pr_cmds[] = {
    &pr_cmd_report, &pr_cmd_table, &pr_cmd_diff, &pr_cmd_trend,
    &pr_cmd_record, &pr_cmd_help,  NULL,
};

const struct pr_cmd *
pr_cmd_find(const char *name)
{
    size_t i;

    for (i = 0; pr_cmds[i] != NULL; i++)
        if (pr_cmds[i]->name[0] != '\0' && strcmp(pr_cmds[i]->name, name) == 0)
            return pr_cmds[i];
    return NULL;
}

const struct pr_cmd *
pr_cmd_suggest(const char *name)
{
    const char *names[64], *near;
    size_t i, n = 0;

    for (i = 0; pr_cmds[i] != NULL && n < 64; i++)
        names[n++] = pr_cmds[i]->name;
    /* within two edits; "tab" for "table", two letters too wild a guess */
    near = pr_nearest(name, names, n, 3);
    return near != NULL ? pr_cmd_find(near) : NULL;
}

enum pr_status
pr_cmd_select(int argc, char **argv, const struct pr_cmd **out, int *shift,
              struct pr_error *err)
{
    const struct pr_cmd *c, *near;
    struct stat sb;

    *out = &pr_cmd_report;
    *shift = 0;
    if (argc < 2 || argv[1][0] == '-')
        return PR_OK;
    c = pr_cmd_find(argv[1]);
    if (c != NULL) {
        *out = c;
        *shift = 1;
        return PR_OK;
    }
    /* a bare word is an input path, unless it is no file and looks like
       a command mistyped */
    near = pr_cmd_suggest(argv[1]);
    if (near != NULL && stat(argv[1], &sb) != 0)
        return pr_error_set(err, PR_E_USAGE,
                            "unknown command '%s'; did you mean '%s'?", argv[1],
                            near->name);
    return PR_OK;
}
