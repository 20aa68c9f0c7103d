/* cases.h - data-driven test files (jq.test style): one named case a line,
 * fields separated by '|', the last field the rest of the line; '#' lines
 * and blank lines are skipped.  Include after <cmocka.h> and <stdio.h>. */
#ifndef PROFREPORT_CASES_H
#define PROFREPORT_CASES_H

#include <stdlib.h>
#include <string.h>

#define CASE_LINE 8192
#define CASE_FIELDS 12

struct tcase {
    char line[CASE_LINE];
    char *f[CASE_FIELDS]; /* trimmed fields; f[0] is the case name */
    int n;                /* fields read */
    int lineno;
};

/* $PR_SRCDIR/rel, opened; skips the test (saying why) when PR_SRCDIR is
 * unset, fails it when the file is missing (it ships with the sources). */
static FILE *
cases_open(const char *rel)
{
    const char *src = getenv("PR_SRCDIR");
    char path[4096];
    FILE *f;

    if (src == NULL) {
        print_message("# PR_SRCDIR unset: %s not read\n", rel);
        skip();
    }
    snprintf(path, sizeof(path), "%s/%s", src, rel);
    f = fopen(path, "r");
    if (f == NULL)
        fail_msg("cannot open %s", path);
    return f;
}

static char *
cases_trim(char *s)
{
    char *e;

    while (*s == ' ' || *s == '\t')
        s++;
    e = s + strlen(s);
    while (e > s &&
           (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
        *--e = '\0';
    return s;
}

/* The next case with exactly nfields fields (the last one keeps any '|'
 * it holds); 0 at end of file.  A malformed line fails the test. */
static int
cases_next(FILE *f, struct tcase *c, int nfields)
{
    while (fgets(c->line, sizeof(c->line), f) != NULL) {
        char *p = c->line, *bar;

        c->lineno++;
        if (*cases_trim(p) == '\0' || *cases_trim(p) == '#')
            continue;
        for (c->n = 0; c->n < nfields - 1; c->n++) {
            bar = strchr(p, '|');
            if (bar == NULL)
                fail_msg("line %d: %d fields expected", c->lineno, nfields);
            *bar = '\0';
            c->f[c->n] = cases_trim(p);
            p = bar + 1;
        }
        c->f[c->n++] = cases_trim(p);
        return 1;
    }
    return 0;
}

#endif
