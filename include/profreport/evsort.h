/* evsort.h - a trace's events into time order for pr_trace_finish():
 * by start, then by their index in the file, ties kept in array order.
 * The result is the same for any number of threads. */
#ifndef PROFREPORT_EVSORT_H
#define PROFREPORT_EVSORT_H

#include <stddef.h>

#include "profreport/trace.h"

/* Sort ev[0..n) by (ts_ns, order), stable; `threads` > 1 lets it use a
 * second thread.  Needs 24 bytes per event of scratch; without them it
 * falls back to qsort() of the events themselves. */
void pr_events_sort(struct pr_event *ev, size_t n, int threads);

/* The order above, as a qsort() comparison of two events: < 0, 0, > 0. */
int pr_event_cmp(const void *a, const void *b);

#endif
