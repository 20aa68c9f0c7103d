/* cmds.c - the table of commands (cmd.h) and how argv picks one,
 * suggestions for typos included. */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include "profreport/cmd.h"

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

/* Edit distance (insert, delete, substitute, swap of neighbours) of two
 * short words; anything past 15 bytes counts as far. */
static size_t
distance(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b), i, j;
    size_t d[16][16];

    if (na > 15 || nb > 15)
        return 99;
    for (i = 0; i <= na; i++)
        d[i][0] = i;
    for (j = 0; j <= nb; j++)
        d[0][j] = j;
    for (i = 1; i <= na; i++)
        for (j = 1; j <= nb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
                a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[na][nb];
}

const struct pr_cmd *
pr_cmd_suggest(const char *name)
{
    const struct pr_cmd *best = NULL;
    size_t i, best_d = 3, n = strlen(name);

    for (i = 0; pr_cmds[i] != NULL; i++) {
        const char *c = pr_cmds[i]->name;
        size_t d;
        if (c[0] == '\0')
            continue;
        /* "tab" for "table"; two letters would be too wild a guess */
        d = n >= 3 && strncmp(c, name, n) == 0 ? 1 : distance(name, c);
        if (d < best_d) {
            best = pr_cmds[i];
            best_d = d;
        }
    }
    return best;
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
