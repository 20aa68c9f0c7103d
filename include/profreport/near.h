/* near.h - the nearest of some words to a mistyped one, for "did you
 * mean" hints (commands, options, table kinds, gate rule names). */
#ifndef PROFREPORT_NEAR_H
#define PROFREPORT_NEAR_H

#include <stddef.h>

/* The edit distance of a and b: inserts, deletes, substitutions and swaps
 * of neighbours each count one (optimal string alignment).  Words longer
 * than 256 bytes are SIZE_MAX away from everything. */
size_t pr_edit_distance(const char *a, const char *b);

/* The word of `words` (n of them; NULL entries are skipped) nearest to
 * `typed` at a distance below `limit`, or NULL.  A word that `typed`
 * begins (three bytes or more) counts as distance one.  Ties: the first. */
const char *pr_nearest(const char *typed, const char *const *words, size_t n,
                       size_t limit);

#endif
