/* ranges.h - interval lists and the plugin's range algebra
 * (spec/tb-plugin-semantics.md, Appendix A): merge, intersect, subtract.
 * Times are int64 nanoseconds, so sums are exact and independent of the
 * piece structure the algorithms produce.
 *
 * Ownership: a struct pr_ranges owns its array; pr_ranges_free() releases
 * it (and accepts a zero-initialised or already freed list). */
#ifndef PROFREPORT_RANGES_H
#define PROFREPORT_RANGES_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/error.h"

struct pr_range {
    int64_t start_ns;
    int64_t end_ns; /* >= start_ns */
};

struct pr_ranges {
    struct pr_range *v; /* owned, n entries */
    size_t n, cap;
};

/* Release the array and reset to empty; accepts an empty list. */
void pr_ranges_free(struct pr_ranges *r);

/* Append [start_ns, end_ns).  PR_E_NOMEM on allocation failure. */
PR_NODISCARD enum pr_status pr_ranges_push(struct pr_ranges *r,
                                           int64_t start_ns, int64_t end_ns,
                                           struct pr_error *err);

/* Append [start_ns, end_ns), joined at once to the last range when it
 * starts inside that one.  A list pushed in start order so stays merged
 * (and short) as it grows; in any order, pr_ranges_merge() afterwards
 * gives the same result as after pr_ranges_push().  PR_E_NOMEM on
 * allocation failure. */
PR_NODISCARD enum pr_status pr_ranges_push_merging(struct pr_ranges *r,
                                                   int64_t start_ns,
                                                   int64_t end_ns,
                                                   struct pr_error *err);

/* A.1 merge, in place: sort by start, absorb contained ranges, join
 * overlapping and touching ones.  Cannot fail. */
void pr_ranges_merge(struct pr_ranges *r);

/* A.2: out = a ∩ b.  Both inputs sorted and disjoint (merged); out is
 * emptied first and must not alias a or b. */
PR_NODISCARD enum pr_status pr_ranges_intersect(const struct pr_ranges *a,
                                                const struct pr_ranges *b,
                                                struct pr_ranges *out,
                                                struct pr_error *err);

/* A.3: out = a minus b, same preconditions as pr_ranges_intersect(). */
PR_NODISCARD enum pr_status pr_ranges_subtract(const struct pr_ranges *a,
                                               const struct pr_ranges *b,
                                               struct pr_ranges *out,
                                               struct pr_error *err);

/* Total length of the pieces (ns).  Cannot fail. */
int64_t pr_ranges_sum(const struct pr_ranges *r);

/* Length of the overlap of merged list r with [start_ns, end_ns); the
 * per-step sums of 7.1 and the bucket sums of 9.6.  Cannot fail. */
int64_t pr_ranges_overlap(const struct pr_ranges *r, int64_t start_ns,
                          int64_t end_ns);

/* Split [start_ns, end_ns) by priority: out[c] (c < n) is the time that
 * lists[c] covers and no list before it does, out[n] the time none covers;
 * they add up to the span.  Each list merged; n at most
 * PR_RANGES_SPLIT_MAX (else all zero).  One walk over the pieces inside
 * the span, nothing allocated: the 7.1 breakdown of a step without
 * building the remaining-time lists.  Cannot fail. */
#define PR_RANGES_SPLIT_MAX 16
void pr_ranges_split(const struct pr_ranges *const *lists, size_t n,
                     int64_t start_ns, int64_t end_ns, int64_t *out);

#endif
