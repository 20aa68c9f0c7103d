/* near.c - edit distance and the nearest word (near.h). */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "profreport/near.h"

#define NEAR_MAX 256

size_t
pr_edit_distance(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b), i, j;
    size_t row[3][NEAR_MAX + 1]; /* rows i-2, i-1 and i, in turn */

    if (na > NEAR_MAX || nb > NEAR_MAX)
        return SIZE_MAX;
    for (j = 0; j <= nb; j++)
        row[0][j] = j;
    for (i = 1; i <= na; i++) {
        size_t *cur = row[i % 3], *prev = row[(i - 1) % 3],
               *prev2 = row[(i + 1) % 3];
        cur[0] = i;
        for (j = 1; j <= nb; j++) {
            size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
                a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < best)
                best = prev2[j - 2] + 1;
            cur[j] = best;
        }
    }
    return row[na % 3][nb];
}

const char *
pr_nearest(const char *typed, const char *const *words, size_t n, size_t limit)
{
    const char *best = NULL;
    size_t i, best_d = limit, k = strlen(typed);

    for (i = 0; i < n; i++) {
        size_t d;
        if (words[i] == NULL || words[i][0] == '\0')
            continue;
        d = k >= 3 && strncmp(words[i], typed, k) == 0
                ? 1
                : pr_edit_distance(typed, words[i]);
        if (d < best_d) {
            best = words[i];
            best_d = d;
        }
    }
    return best;
}
