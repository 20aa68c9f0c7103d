/* ascend_memory.c - operator_memory.csv (spec §2.3): one row per
 * allocation of the NPU's allocators, with its size, when it was made and
 * released, and the allocator's totals at both moments.  Each row is an
 * allocation record and, when it was released inside the window, a
 * release record (paired by a number of our own: the table has no
 * address), on the thread of the host operators, so the memory view
 * attributes them to the operator running then as it does PyTorch's.
 *
 * Two allocators write rows: PyTorch's caching allocator (PTA, "aten::"
 * and other operator names) and CANN's graph engine (GE, "cann::" names),
 * each with its own totals.  The curve takes the totals of PTA rows, the
 * allocator PyTorch's own memory view shows, and those of GE rows only
 * when no PTA row is there (2023 data), so it never jumps between two
 * allocators.  memory_record.csv holds the same totals sampled, and is
 * not needed for the curve. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "ascend.h"
#include "profreport/phases.h"

#define MAX_ROWS ((size_t)1 << 24)

enum {
    M_NAME,
    M_SIZE,
    M_ALLOC_T,
    M_FREE_T,
    M_ALLOC_A, /* Allocation Total Allocated(MB) */
    M_ALLOC_R,
    M_FREE_A,
    M_FREE_R,
    M_DEVICE,
    M_N
};

static const char *const m_cols[M_N] = {"Name",
                                        "Size(KB)",
                                        "Allocation Time(us)",
                                        "Release Time(us)",
                                        "Allocation Total Allocated(MB)",
                                        "Allocation Total Reserved(MB)",
                                        "Release Total Allocated(MB)",
                                        "Release Total Reserved(MB)",
                                        "Device Type"};

/* One row, kept until all are read (the curve's allocator is known only
 * then). */
struct mrow {
    uint32_t name;
    int64_t bytes, alloc_ns, free_ns; /* free_ns -1: not released */
    double totals[4];                 /* bytes; NaN when empty */
    int32_t device;
    int ge;
};

struct mtab {
    struct mrow *v;
    size_t n, cap;
    int has_pta;
};

/* A number cell as a double; NaN when empty or not one. */
static double
num(const struct pr_csv *c, int col)
{
    size_t n;
    const char *s = pr_csv_field(c, col, &n);
    double d;

    while (n > 0 && (s[n - 1] == '\t' || s[n - 1] == ' '))
        n--;
    if (col < 0 || n == 0 || !pr_fld_parse_number(s, n, &d))
        return NAN;
    return d;
}

/* "NPU:3" -> 3 (torch's device "npu:3"); -1 when the cell names no
 * device. */
static int32_t
named_device(const struct pr_csv *c, int col)
{
    size_t n;
    const char *s = pr_csv_field(c, col, &n), *colon = memchr(s, ':', n);
    int64_t d;

    if (colon == NULL ||
        !pr_asc_int(colon + 1, n - (size_t)(colon + 1 - s), &d) || d < 0 ||
        d > INT32_MAX)
        return -1;
    return (int32_t)d;
}

/* The same, 0 when the cell names no device. */
static int32_t
device_of(const struct pr_csv *c, int col)
{
    int32_t d = named_device(c, col);

    return d < 0 ? 0 : d;
}

/* The first device a table's Device Type names, or -1. */
static int64_t
first_device(struct pr_asc *a, const char *name)
{
    char path[4096];
    struct pr_csv *c = NULL;
    struct pr_error e;
    int col, got = 1;
    int64_t d = -1;

    if (!pr_asc_path(a, name, path, sizeof(path)) ||
        pr_csv_open(path, a->max, &c, &e) != PR_OK)
        return -1;
    col = pr_csv_col(c, "Device Type");
    while (col >= 0 && d < 0 && pr_csv_next(c, &got, &e) == PR_OK && got)
        d = named_device(c, col);
    pr_csv_close(c);
    return d;
}

void
pr_asc_memory_device(struct pr_asc *a)
{
    int64_t d = first_device(a, "memory_record.csv");

    if (d < 0)
        d = first_device(a, "operator_memory.csv");
    if (d >= 0) {
        a->device = d;
        a->device_known = 1;
    }
}

static int
read_row(const struct pr_csv *c, const int *col, struct pr_trace *t,
         struct mrow *r)
{
    size_t n, m, k;
    const char *name = pr_csv_field(c, col[M_NAME], &n);
    const char *ft = pr_csv_field(c, col[M_FREE_T], &m);
    const char *at = pr_csv_field(c, col[M_ALLOC_T], &k);
    double kb = num(c, col[M_SIZE]);
    int i;

    memset(r, 0, sizeof(*r));
    r->name = pr_strtab_intern(t->strs, name, n);
    r->ge = strncmp(name, "cann::", 6) == 0;
    if (isnan(kb) || kb < 0 || kb > 1e15 || !pr_asc_us(at, k, &r->alloc_ns))
        return 0;
    r->bytes = (int64_t)llround(kb * 1024.0);
    r->free_ns = -1;
    if (col[M_FREE_T] >= 0 && !pr_asc_us(ft, m, &r->free_ns))
        r->free_ns = -1; /* empty: not released in the window */
    for (i = 0; i < 4; i++)
        r->totals[i] = num(c, col[M_ALLOC_A + i]) * 1048576.0;
    r->device = device_of(c, col[M_DEVICE]);
    return 1;
}

static enum pr_status
read_rows(const char *path, uint64_t max, struct pr_trace *t, struct mtab *tb,
          struct pr_error *err)
{
    struct pr_csv *c = NULL;
    int col[M_N], got = 1;
    size_t i;
    enum pr_status st = pr_csv_open(path, max, &c, err);

    for (i = 0; st == PR_OK && i < M_N; i++)
        col[i] = pr_csv_col(c, m_cols[i]);
    if (st == PR_OK &&
        (col[M_NAME] < 0 || col[M_SIZE] < 0 || col[M_ALLOC_T] < 0))
        st = pr_error_set(err, PR_E_FORMAT,
                          "no Name, Size(KB) or Allocation Time(us) column");
    while (st == PR_OK && (st = pr_csv_next(c, &got, err)) == PR_OK && got) {
        t->n_trace_events++;
        if (tb->n >= MAX_ROWS)
            st = pr_error_set(err, PR_E_LIMIT, "more than %zu rows", MAX_ROWS);
        else if (pr_grow((void **)&tb->v, &tb->cap, tb->n + 1,
                         sizeof(*tb->v)) != PR_OK)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
        else if (!read_row(c, col, t, &tb->v[tb->n]))
            st = pr_error_set(err, PR_E_FORMAT,
                              "line %llu: Size(KB) or Allocation Time(us) "
                              "is not a number",
                              (unsigned long long)pr_csv_line(c));
        else
            tb->has_pta |= !tb->v[tb->n++].ge;
    }
    t->bytes += pr_csv_bytes(c);
    pr_csv_close(c);
    return st;
}

/* The thread of the host operators: that of the longest one (the step or
 * the training loop's outermost operator).  0 when there is none. */
static int
host_thread(const struct pr_trace *t, uint32_t *pid, uint32_t *tid)
{
    int64_t best = -1;
    size_t i;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind == PR_KIND_HOST_OP && e->dur_ns > best) {
            best = e->dur_ns;
            *pid = pr_event_pid(t, e);
            *tid = pr_event_tid(t, e);
        }
    }
    return best >= 0;
}

static enum pr_status
add_record(struct pr_trace *t, const struct pr_span *base, int64_t ts,
           const struct mrow *r, int64_t id, int release, int totals)
{
    struct pr_span s = *base;
    struct pr_mem_desc d;

    s.ts_ns = ts;
    d.device_type = 1;
    d.device_id = r->device;
    d.addr = id;
    d.bytes = release ? -r->bytes : r->bytes;
    d.total_allocated = totals ? r->totals[release ? 2 : 0] : NAN;
    d.total_reserved = totals ? r->totals[release ? 3 : 1] : NAN;
    return pr_trace_add_memory(t, &s, &d, NULL);
}

static enum pr_status
emit(struct pr_trace *t, const struct mtab *tb)
{
    uint32_t pid = PR_STR_NONE, tid = PR_STR_NONE;
    struct pr_span s;
    size_t i;
    enum pr_status st = PR_OK;

    memset(&s, 0, sizeof(s));
    s.name = "[memory]";
    s.cat = "operator_memory";
    s.pid = "NPU memory";
    s.tid = "allocator";
    if (host_thread(t, &pid, &tid)) {
        s.pid = pr_trace_str(t, pid);
        s.tid = pr_trace_str(t, tid);
    }
    s.external_id = s.correlation = PR_NO_ID;
    for (i = 0; i < tb->n && st == PR_OK; i++) {
        const struct mrow *r = &tb->v[i];
        int totals = r->ge == !tb->has_pta;

        st = add_record(t, &s, r->alloc_ns, r, (int64_t)i, 0, totals);
        if (st == PR_OK && r->free_ns >= 0)
            st = add_record(t, &s, r->free_ns, r, (int64_t)i, 1, totals);
    }
    return st;
}

/* memory_record.csv: each component's totals sampled over the run
 * (Component, Timestamp(us), Total Allocated(MB), Total Reserved(MB),
 * Device Type; APP rows give only the reserved total).  Kept as each
 * component's peaks (phases.h): the APP peak is what the whole process
 * held on the device, beside the PTA curve operator_memory.csv draws. */
static enum pr_status
read_record(struct pr_asc *a, const char *path, struct pr_error *err)
{
    struct pr_csv *c = NULL;
    enum pr_status st = pr_csv_open(path, a->max, &c, err);
    int col[5], got = 1;

    if (st == PR_OK) {
        col[0] = pr_csv_col(c, "Component");
        col[1] = pr_csv_col(c, "Timestamp(us)");
        col[2] = pr_csv_col(c, "Total Allocated(MB)");
        col[3] = pr_csv_col(c, "Total Reserved(MB)");
        col[4] = pr_csv_col(c, "Device Type");
        if (col[0] < 0 || col[1] < 0 || (col[2] < 0 && col[3] < 0))
            st = pr_error_set(err, PR_E_FORMAT,
                              "no Component, Timestamp(us) or Total "
                              "Allocated/Reserved(MB) column");
    }
    while (st == PR_OK && (st = pr_csv_next(c, &got, err)) == PR_OK && got) {
        size_t n, k;
        const char *name = pr_csv_field(c, col[0], &n);
        const char *ts = pr_csv_field(c, col[1], &k);
        double al = num(c, col[2]) * 1048576.0, re = num(c, col[3]) * 1048576.0;
        int64_t at;
        struct pr_mem_component *m;

        if (n == 0 || !pr_asc_us(ts, k, &at) || !(al >= 0 || re >= 0) ||
            al > 1e18 || re > 1e18) {
            st = pr_error_set(err, PR_E_FORMAT,
                              "not a component with a time and a total "
                              "in MB");
            break;
        }
        m = pr_phases_mem(a->t, name, device_of(c, col[4]));
        if (m == NULL) {
            st = pr_error_set(err, PR_E_LIMIT,
                              "more than 64 components, or out of memory");
            break;
        }
        m->samples++;
        if (al >= 0 && al > m->peak_allocated) {
            m->peak_allocated = al;
            if (!(m->peak_reserved >= 0))
                m->peak_ns = at;
        }
        if (re >= 0 && re > m->peak_reserved) {
            m->peak_reserved = re;
            m->peak_ns = at;
        }
    }
    a->t->bytes += pr_csv_bytes(c);
    return pr_csv_done(c, path, st, err);
}

enum pr_status
pr_asc_memory_record(struct pr_asc *a, struct pr_error *err)
{
    char path[4096];
    enum pr_status st;

    if (!pr_asc_path(a, "memory_record.csv", path, sizeof(path)))
        return PR_OK;
    st = read_record(a, path, err);
    a->has_mem_record = st == PR_OK;
    return st;
}

enum pr_status
pr_asc_memory(struct pr_asc *a, struct pr_error *err)
{
    char path[4096];
    struct mtab tb = {0};
    enum pr_status st;

    if (!pr_asc_path(a, "operator_memory.csv", path, sizeof(path)))
        return PR_OK;
    st = read_rows(path, a->max, a->t, &tb, err);
    if (st == PR_OK && emit(a->t, &tb) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    free(tb.v);
    a->has_memory = st == PR_OK;
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}
