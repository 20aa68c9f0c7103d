/* testshared.h - where ../shared/traces is for a test program: $PR_SHARED,
 * else beside $PR_SRCDIR (tests/run.sh sets both).  Tests that read real
 * traces skip, saying so, when it is absent. */
#ifndef PROFREPORT_TESTSHARED_H
#define PROFREPORT_TESTSHARED_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* out = the traces folder + sub ("" or "/hta"); 1 when it is a folder. */
static inline int
shared_traces(char *out, size_t n, const char *sub)
{
    const char *env = getenv("PR_SHARED");
    const char *src = getenv("PR_SRCDIR");
    struct stat sb;
    int k;

    if (env != NULL && env[0] != '\0')
        k = snprintf(out, n, "%s/traces%s", env, sub);
    else
        k = snprintf(out, n, "%s/../shared/traces%s", src != NULL ? src : "..",
                     sub);
    return k > 0 && (size_t)k < n && stat(out, &sb) == 0 && S_ISDIR(sb.st_mode);
}

#endif
