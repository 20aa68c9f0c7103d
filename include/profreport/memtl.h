/* memtl.h - torch.profiler's raw memory timeline, as
 * MemoryProfileTimeline.export_memory_timeline_raw() writes it and HTA's
 * MemoryAnalysis reads it: rows [t_ns, action, numbytes, category] of one
 * device (the file does not say which).  The reader feeds the rows in file
 * order; the aggregate follows HTA's _process_raw_events: a point per
 * change of t, each category's bytes the running sum of numbytes, rows of
 * t -1 (allocations older than the profile) at the smallest positive t.
 * Memory is bounded: the curve is kept at most PR_MEMTL_MAX_POINTS points
 * (each the highest point of the run of points it stands for, so the
 * peak is one of them).  Owned by the trace (pr_trace.memtl). */
#ifndef PROFREPORT_MEMTL_H
#define PROFREPORT_MEMTL_H

#include <stddef.h>
#include <stdint.h>

/* HTA's _CATEGORY_TO_COLORS order, which torch's _CATEGORY_TO_INDEX
 * shares: the category field of a row is an index into it. */
#define PR_MEMTL_CATS 8
#define PR_MEMTL_MAX_POINTS 500

/* The actions of torch's _memory_profiler.Action (enum.auto(), from 1). */
enum pr_memtl_action {
    PR_MEMTL_PREEXISTING = 1,
    PR_MEMTL_CREATE = 2,
    PR_MEMTL_INCREMENT_VERSION = 3,
    PR_MEMTL_DESTROY = 4
};

struct pr_memtl_point {
    int64_t t_ns; /* as read until pr_memtl_end(); then -1 mapped */
    int64_t bytes[PR_MEMTL_CATS];
    int64_t total;
};

struct pr_memtl {
    uint64_t rows;              /* rows read */
    uint64_t by_action[5];      /* rows read by action (1-4; 0 unused) */
    uint64_t points;            /* HTA's timestamps (changes of t) */
    int64_t t_min_ns, t_max_ns; /* HTA's t_min; the last point's time max */
    struct pr_memtl_point peak; /* the first point of the greatest total */
    int64_t max_bytes[PR_MEMTL_CATS]; /* each category's own greatest */
    struct pr_memtl_point *curve;     /* owned, n_curve, in row order */
    size_t n_curve;
    /* building state */
    struct pr_memtl_point cur;  /* the point being summed */
    struct pr_memtl_point best; /* the highest of the bucket being filled */
    uint64_t in_bucket, stride; /* points in it; points a bucket holds */
    int open;                   /* cur holds a point */
};

/* The category's name as HTA shows it ("Activation"); NULL out of range. */
const char *pr_memtl_category(int cat);

/* A new empty timeline; NULL on out-of-memory. */
struct pr_memtl *pr_memtl_new(void);

/* Add one row, already checked (action 1-4, category 0-7, t >= -1). */
void pr_memtl_add(struct pr_memtl *m, int64_t t_ns, int64_t bytes, int cat);

/* Close the last point and map times of -1 to t_min. */
void pr_memtl_end(struct pr_memtl *m);

/* Accepts NULL. */
void pr_memtl_free(struct pr_memtl *m);

/* What a raw memory timeline lacks, said by the analyses that find
 * nothing in it (review 14 #6): not a profiler setting to change. */
#define PR_MEMTL_ONLY_ALLOCS                                                   \
    "A raw memory timeline (export_memory_timeline_raw) holds tensor "         \
    "memory only (allocations, frees and version changes by category): no "    \
    "operators, stacks, module frames, runtime calls or device tasks."

#endif
