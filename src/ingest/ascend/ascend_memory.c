/* ascend_memory.c - operator_memory.csv (spec §2.3): one row per
 * allocation of the NPU's allocators, with its size, when it was made and
 * released, and the allocator's totals at both moments.  Each row is an
 * allocation record and, when it was released inside the window, a
 * release record (paired by a number of our own: the table has no
 * address), on the thread of the host operator running then
 * (pr_asc_opthreads: the backward's own thread), so the memory view
 * attributes them to the operator running then as it does PyTorch's.
 * A "cann::" row is CANN's own allocation for the task it names: it
 * goes to that task's row (pr_asc_ge_name), not the operator running.
 *
 * Two allocators write rows: PyTorch's caching allocator (PTA, "aten::"
 * and other operator names) and CANN's graph engine (GE, "cann::" names),
 * each with its own totals.  The curve takes the totals of PTA rows, the
 * allocator PyTorch's own memory view shows, and those of GE rows only
 * when no PTA row is there (2023 data), so it never jumps between two
 * allocators; t->phases->mem_curve names the one taken.  memory_record.csv
 * holds each component's totals sampled: the device's peaks come from its
 * PTA rows (memory.c) where the curve is GE's.
 *
 * Rows more than an hour outside the span of the run's tasks are another
 * capture's (torch_npu/old2023 rank 1: a ResNet's rows 134 days after the
 * GPT run's tasks) and rows whose time is in E-notation ("1.69512E+15", a
 * spreadsheet's rounding) have no usable time: both are left out, with a
 * Data quality row, as the database path leaves out NPU_OP_MEM rows
 * outside its session. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../internal.h"
#include "ascend.h"
#include "ascend_common.h"
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
    double rounded_us; /* > 0: Allocation Time in E-notation, to this */
};

struct mtab {
    struct mrow *v;
    size_t n, cap;
    int has_pta;
};

/* Rows left out: another capture's, or with no usable time. */
struct mleft {
    size_t outside, rounded;
    double far_ns;        /* the farthest outside row from the span */
    int64_t far_at_ns;    /* its time */
    int64_t lo_ns, hi_ns; /* the span of the run's tasks */
    double rounded_us;    /* the coarsest E-notation time's resolution */
};

/* More than this outside the run's tasks, a row is another capture's. */
#define OUTSIDE_NS ((int64_t)3600 * 1000000000)

/* A time cell in E-notation ("1.69512E+15", as a spreadsheet saves a
 * 16-digit number) coarser than a second: its resolution in us,
 * 10^(exponent - digits after the point); 0 when the cell is a plain
 * number or resolves a second. */
static double
e_notation_us(const char *s, size_t n)
{
    char buf[40];
    const char *e = NULL, *dot;
    double res;
    size_t i;

    for (i = 0; i < n && e == NULL; i++)
        if (s[i] == 'e' || s[i] == 'E')
            e = s + i;
    if (e == NULL || (size_t)(s + n - e) >= sizeof(buf))
        return 0;
    memcpy(buf, e + 1, (size_t)(s + n - e - 1));
    buf[s + n - e - 1] = '\0';
    dot = memchr(s, '.', (size_t)(e - s));
    res = pow(10.0,
              strtod(buf, NULL) - (dot != NULL ? (double)(e - dot - 1) : 0));
    return res >= 1e6 && res < 1e18 ? res : 0;
}

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
    r->rounded_us = e_notation_us(at, k);
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

/* A record at ts: on the thread of the host operator running then
 * (pr_asc_opthreads), else the allocator's own; a GE row on the
 * allocator's, named by its task (pr_asc_ge_name). */
static enum pr_status
add_record(struct pr_trace *t, const struct pr_span *base,
           const struct pr_asc_opthreads *th, int64_t ts, const struct mrow *r,
           int64_t id, int release, int totals)
{
    struct pr_span s = *base;
    struct pr_mem_desc d;
    uint32_t pid, tid = PR_STR_NONE;
    char ge[256];

    if (r->ge) { /* the task's own, on no operator's thread */
        const char *n = pr_trace_str(t, r->name);

        pr_asc_ge_name(n, strlen(n), ge, sizeof(ge));
        s.name = ge;
        pid = PR_STR_NONE;
    } else if (!pr_asc_opthreads_at(th, ts, &pid, &tid)) {
        pid = th->pid;
        tid = th->tid;
    }
    if (pid != PR_STR_NONE) {
        s.pid = pr_trace_str(t, pid);
        s.tid = pr_trace_str(t, tid);
    }

    s.ts_ns = ts;
    d.device_type = 1;
    d.device_id = r->device;
    d.addr = id;
    d.bytes = release ? -r->bytes : r->bytes;
    d.total_allocated = totals ? r->totals[release ? 2 : 0] : NAN;
    d.total_reserved = totals ? r->totals[release ? 3 : 1] : NAN;
    return pr_trace_add_memory(t, &s, &d, NULL);
}

/* A day on the calendar ("2023-09-19") of a time since the epoch; ""
 * when it is not one (a device's monotonic clock). */
static void
day_of(int64_t ns, char *out, size_t cap)
{
    time_t s = (time_t)(ns / 1000000000);
    struct tm tm;

    out[0] = '\0';
    if (ns > (int64_t)946684800 * 1000000000 && gmtime_r(&s, &tm) != NULL)
        strftime(out, cap, "%Y-%m-%d", &tm);
}

/* Leave out the rows of another capture (more than OUTSIDE_NS from the
 * span of the run's tasks) and those whose time is in E-notation; into
 * lf what was left out. */
static void
keep_in_span(const struct pr_trace *t, struct mtab *tb, struct mleft *lf)
{
    size_t i, k = 0;

    memset(lf, 0, sizeof(*lf));
    lf->lo_ns = INT64_MAX;
    lf->hi_ns = INT64_MIN;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind == PR_KIND_MEMORY_RECORD)
            continue;
        if (e->ts_ns < lf->lo_ns)
            lf->lo_ns = e->ts_ns;
        if (e->ts_ns + e->dur_ns > lf->hi_ns)
            lf->hi_ns = e->ts_ns + e->dur_ns;
    }
    for (i = 0; i < tb->n; i++) {
        const struct mrow *r = &tb->v[i];
        /* in double: two times far apart overflow an int64 */
        double off =
            lf->lo_ns > lf->hi_ns     ? 0
            : r->alloc_ns < lf->lo_ns ? (double)lf->lo_ns - (double)r->alloc_ns
            : r->alloc_ns > lf->hi_ns ? (double)r->alloc_ns - (double)lf->hi_ns
                                      : 0;

        if (r->rounded_us > 0) {
            lf->rounded++;
            if (r->rounded_us > lf->rounded_us)
                lf->rounded_us = r->rounded_us;
        } else if (off > (double)OUTSIDE_NS) {
            if (off > lf->far_ns) {
                lf->far_ns = off;
                lf->far_at_ns = r->alloc_ns;
            }
            lf->outside++;
        } else
            tb->v[k++] = *r;
    }
    tb->n = k;
    tb->has_pta = 0;
    for (i = 0; i < tb->n; i++)
        tb->has_pta |= !tb->v[i].ge;
}

/* The Data quality rows of what keep_in_span() left out. */
static enum pr_status
note_left_out(struct pr_trace *t, const struct mleft *lf)
{
    char text[400], a[16], b[16];
    enum pr_status st = PR_OK;

    if (lf->outside > 0) {
        day_of(lf->far_at_ns, a, sizeof(a));
        day_of(lf->far_at_ns < lf->lo_ns ? lf->lo_ns : lf->hi_ns, b, sizeof(b));
        snprintf(text, sizeof(text),
                 "operator_memory.csv rows outside the span of the run's "
                 "tasks are left out: they are not of this capture (the "
                 "farthest is %.1f days %s its tasks%s%s%s%s%s), and their "
                 "curve would stand apart from every task",
                 lf->far_ns / 86400e9,
                 lf->far_at_ns < lf->lo_ns ? "before" : "after",
                 a[0] && b[0] ? ": " : "", a[0] && b[0] ? a : "",
                 a[0] && b[0] ? " against the tasks' " : "",
                 a[0] && b[0] ? b : "", "");
        st = pr_trace_add_gap(t, "npu_op_mem_outside_session", lf->outside,
                              text);
    }
    if (st == PR_OK && lf->rounded > 0) {
        snprintf(text, sizeof(text),
                 "operator_memory.csv rows whose Allocation Time(us) is in "
                 "E-notation (rounded to %.0f s, as a spreadsheet saves a "
                 "16-digit number) are left out: such a value is not a "
                 "time",
                 lf->rounded_us / 1e6);
        st = pr_trace_add_gap(t, "memory_time_rounded", lf->rounded, text);
    }
    return st;
}

static enum pr_status
emit(struct pr_trace *t, const struct mtab *tb)
{
    struct pr_asc_opthreads th;
    struct pr_span s;
    size_t i;
    enum pr_status st = PR_OK;

    memset(&s, 0, sizeof(s));
    s.name = "[memory]";
    s.cat = "operator_memory";
    s.pid = "NPU memory";
    s.tid = "allocator";
    s.external_id = s.correlation = PR_NO_ID;
    if (tb->n > 0) {
        struct pr_phases *p = pr_phases_of(t);

        if (p == NULL)
            return PR_E_NOMEM;
        p->mem_curve = tb->has_pta ? "PTA" : "GE";
    }
    if (pr_asc_opthreads_make(t, &th) != PR_OK)
        return PR_E_NOMEM;
    for (i = 0; i < tb->n && st == PR_OK; i++) {
        const struct mrow *r = &tb->v[i];
        int totals = r->ge == !tb->has_pta;

        st = add_record(t, &s, &th, r->alloc_ns, r, (int64_t)i, 0, totals);
        if (st == PR_OK && r->free_ns >= 0)
            st = add_record(t, &s, &th, r->free_ns, r, (int64_t)i, 1, totals);
    }
    pr_asc_opthreads_free(&th);
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
    size_t rounded = 0;
    double res = 0;
    char text[320];

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
        double e = e_notation_us(ts, k);
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
        if (e > 0) { /* a total of a time not known */
            rounded++;
            res = e > res ? e : res;
            at = -1;
        }
        m->samples++;
        if (al >= 0 && al > m->peak_allocated) {
            m->peak_allocated = al;
            m->peak_ns = at;
        }
        if (re >= 0 && re > m->peak_reserved) {
            m->peak_reserved = re;
            if (!(m->peak_allocated >= 0))
                m->peak_ns = at;
        }
    }
    if (st == PR_OK && rounded > 0) {
        snprintf(text, sizeof(text),
                 "memory_record.csv's Timestamp(us) is in E-notation on "
                 "%zu rows (rounded to %.0f s, as a spreadsheet saves a "
                 "16-digit number): such a value is not a time, so their "
                 "totals count in the components' peaks but when each "
                 "peak came is not known",
                 rounded, res / 1e6);
        if (pr_trace_add_gap(a->t, "memory_time_rounded", rounded, text) !=
            PR_OK)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
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
    struct mleft lf;
    enum pr_status st;

    if (!pr_asc_path(a, "operator_memory.csv", path, sizeof(path)))
        return PR_OK;
    st = read_rows(path, a->max, a->t, &tb, err);
    if (st == PR_OK)
        keep_in_span(a->t, &tb, &lf);
    if (st == PR_OK &&
        (note_left_out(a->t, &lf) != PR_OK || emit(a->t, &tb) != PR_OK))
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    free(tb.v);
    a->has_memory = st == PR_OK;
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}
