/* ascend_steps.c - step_trace_time.csv, torch_npu's own steps (spec
 * §2.3): one row per step with its phases in µs.  The producer's step
 * runs from the first device task of the step to the end of its last one
 * (Preparing is the host step's start to that first task; Stage is the
 * step less Bubble, the time spent receiving in a pipeline), so the step
 * here is Stage + Bubble long, starting at the first task kernel_details
 * assigns to it.  Without kernel_details the host ProfilerStep#N start
 * plus Preparing gives the start, else the host step's own start, else
 * the first device task of the run.  The host ProfilerStep#N operators
 * stop being steps: the report's steps are the producer's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "ascend.h"
#include "profreport/checked.h"
#include "profreport/phases.h"

#define MAX_STEPS 100000

/* One row of the table, in ns. */
struct row {
    int64_t number;         /* Step; -1 when empty (no schedule) */
    int64_t dur, preparing; /* preparing -1 when absent */
};

struct table {
    struct row *v;
    size_t n, cap;
};

/* A µs cell ("17902.5", "1736408883704643.212\t", "") as ns; 0 when it
 * is empty or not a number. */
int
pr_asc_us(const char *s, size_t n, int64_t *ns)
{
    double d;

    while (n > 0 && (*s == ' ' || *s == '\t' || *s == '"'))
        s++, n--;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '"' ||
                     s[n - 1] == '\r'))
        n--;
    if (n == 0)
        return 0;
    switch (pr_fld_us_text_to_ns(s, n, ns)) {
    case PR_FLD_OK:
        return 1;
    case PR_FLD_BAD:
        return pr_fld_parse_number(s, n, &d) &&
               pr_fld_us_to_ns(d, ns) == PR_FLD_OK;
    default:
        return 0;
    }
}

/* An integer cell ("50", "50\t"); 0 when it is not one. */
int
pr_asc_int(const char *s, size_t n, int64_t *out)
{
    while (n > 0 && (*s == ' ' || *s == '\t' || *s == '"'))
        s++, n--;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '"' ||
                     s[n - 1] == '\r'))
        n--;
    return n > 0 && pr_fld_parse_int64(s, n, out);
}

static int64_t
cell_us(const struct pr_csv *c, int col, int *ok)
{
    size_t n;
    const char *s = pr_csv_field(c, col, &n);
    int64_t v = 0;

    if (col >= 0 && !pr_asc_us(s, n, &v))
        *ok = 0;
    return v;
}

/* The table's columns, by the name torch_npu writes; the first seven
 * place the step, all go to the trace's phases (phases.h). */
enum {
    K_STEP,
    K_STAGE,
    K_BUBBLE,
    K_COMPUTING,
    K_COMM_ALONE,
    K_FREE,
    K_PREPARING,
    K_OVERLAPPED,
    K_COMM,
    K_COMM_EXCL_RECV,
    K_N
};

static const char *const col_names[K_N] = {
    "Step",
    "Stage",
    "Bubble",
    "Computing",
    "Communication(Not Overlapped)",
    "Free",
    "Preparing",
    "Overlapped",
    "Communication",
    "Communication(Not Overlapped and Exclude Receive)"};

/* A cell of column k in ns into *ns: PR_PHASE_UNKNOWN when the table has
 * no such column or the cell is empty.  0 when it is not a time. */
static int
phase_cell(const struct pr_csv *c, const int *col, int k, int64_t *ns)
{
    size_t n;
    const char *s = pr_csv_field(c, col[k], &n);

    *ns = PR_PHASE_UNKNOWN;
    if (col[k] < 0 || n == 0)
        return 1;
    if (pr_asc_us(s, n, ns))
        return 1;
    *ns = PR_PHASE_UNKNOWN;
    return 0;
}

/* The row's phases into the trace's table: 1, 0 when a cell is not a
 * time, -1 on out-of-memory. */
static int
keep_phases(struct pr_trace *t, const struct pr_csv *c, const int *col,
            int64_t number)
{
    struct pr_phase_step *p = pr_phases_add_step(t);

    if (p == NULL)
        return -1;
    p->number = number;
    return phase_cell(c, col, K_COMPUTING, &p->computing_ns) &&
           phase_cell(c, col, K_COMM_ALONE, &p->comm_alone_ns) &&
           phase_cell(c, col, K_OVERLAPPED, &p->overlapped_ns) &&
           phase_cell(c, col, K_COMM, &p->comm_ns) &&
           phase_cell(c, col, K_FREE, &p->free_ns) &&
           phase_cell(c, col, K_STAGE, &p->stage_ns) &&
           phase_cell(c, col, K_BUBBLE, &p->bubble_ns) &&
           phase_cell(c, col, K_COMM_EXCL_RECV, &p->comm_excl_recv_ns) &&
           phase_cell(c, col, K_PREPARING, &p->preparing_ns);
}

/* The row's step length: Stage + Bubble, or the phases that make it up
 * (Computing + Communication(Not Overlapped) + Free) in older tables
 * without Stage. */
static int
row_of(const struct pr_csv *c, const int *col, struct row *r)
{
    size_t n;
    const char *s = pr_csv_field(c, col[K_STEP], &n);
    int ok = 1;

    r->number = -1;
    if (n > 0 && !pr_asc_int(s, n, &r->number))
        return 0;
    if (col[K_STAGE] >= 0)
        r->dur = cell_us(c, col[K_STAGE], &ok) + cell_us(c, col[K_BUBBLE], &ok);
    else
        r->dur = cell_us(c, col[K_COMPUTING], &ok) +
                 cell_us(c, col[K_COMM_ALONE], &ok) +
                 cell_us(c, col[K_FREE], &ok);
    r->preparing = -1;
    s = pr_csv_field(c, col[K_PREPARING], &n);
    if (col[K_PREPARING] >= 0 && n > 0)
        r->preparing = cell_us(c, col[K_PREPARING], &ok);
    return ok && r->dur >= 0 && r->number >= -1;
}

/* One row into tb and the trace's phases. */
static enum pr_status
take_row(struct pr_trace *t, const struct pr_csv *c, const int *col,
         struct table *tb, struct pr_error *err)
{
    int kept;

    if (tb->n >= MAX_STEPS)
        return pr_error_set(err, PR_E_LIMIT, "more than %d steps", MAX_STEPS);
    if (pr_grow((void **)&tb->v, &tb->cap, tb->n + 1, sizeof(*tb->v)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    kept = row_of(c, col, &tb->v[tb->n])
               ? keep_phases(t, c, col, tb->v[tb->n].number)
               : 0;
    if (kept < 0)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (kept == 0)
        return pr_error_set(err, PR_E_FORMAT,
                            "line %llu: a step number or a time in us that "
                            "is not one",
                            (unsigned long long)pr_csv_line(c));
    tb->n++;
    return PR_OK;
}

/* The Device_id of the CANN 8.3 table (its first row's), where no other
 * file said which NPU the rank ran on. */
static void
take_device(struct pr_asc *a, const struct pr_csv *c, int col)
{
    size_t n;
    const char *s = pr_csv_field(c, col, &n);
    int64_t v;

    if (col >= 0 && !a->device_known && pr_asc_int(s, n, &v) && v >= 0 &&
        v <= INT32_MAX) {
        a->device = v;
        a->device_known = 1;
    }
}

static enum pr_status
read_table(const char *path, struct pr_asc *a, struct table *tb,
           struct pr_error *err)
{
    struct pr_trace *t = a->t;
    struct pr_csv *c = NULL;
    int col[K_N], got = 1, dev = -1;
    size_t i;
    enum pr_status st = pr_csv_open(path, a->max, &c, err);

    for (i = 0; st == PR_OK && i < K_N; i++)
        col[i] = pr_csv_col(c, col_names[i]);
    if (st == PR_OK)
        dev = pr_csv_col(c, "Device_id");
    if (st == PR_OK &&
        (col[K_STEP] < 0 || (col[K_STAGE] < 0 && col[K_COMPUTING] < 0)))
        st = pr_error_set(err, PR_E_FORMAT,
                          "no Step, or neither Stage nor Computing column");
    if (st == PR_OK)
        pr_csv_skip_ragged(c, col[K_STEP]);
    while (st == PR_OK && (st = pr_csv_next(c, &got, err)) == PR_OK && got) {
        take_device(a, c, dev);
        st = take_row(t, c, col, tb, err);
    }
    if (st == PR_OK && pr_csv_note_ragged(c, t, path) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    t->bytes += pr_csv_bytes(c);
    pr_csv_close(c);
    if (st == PR_OK && t->phases != NULL)
        t->phases->steps_source = "step_trace_time.csv";
    return st;
}

/* Per step number, the first start of a kernel_details row. */
struct anchor {
    int64_t number, start;
};

struct anchors {
    struct anchor *v;
    size_t n, cap;
};

static enum pr_status
anchor_put(struct anchors *an, int64_t number, int64_t start)
{
    size_t i;

    for (i = 0; i < an->n; i++) {
        if (an->v[i].number == number) {
            if (start < an->v[i].start)
                an->v[i].start = start;
            return PR_OK;
        }
    }
    if (an->n >= MAX_STEPS ||
        pr_grow((void **)&an->v, &an->cap, an->n + 1, sizeof(*an->v)) != PR_OK)
        return PR_E_NOMEM;
    an->v[an->n].number = number;
    an->v[an->n++].start = start;
    return PR_OK;
}

static int
anchor_get(const struct anchors *an, int64_t number, int64_t *start)
{
    size_t i;

    for (i = 0; i < an->n; i++)
        if (an->v[i].number == number || number < 0) {
            *start = an->v[i].start;
            return 1;
        }
    return 0;
}

/* The first task of each step by kernel_details' Step Id; rows it cannot
 * read are the kernel reader's to report, so they are passed over here. */
static enum pr_status
read_anchors(const struct pr_asc *a, struct anchors *an, struct pr_error *err)
{
    char path[4096];
    struct pr_csv *c = NULL;
    int col_step, col_start, got = 1;
    enum pr_status st;

    if (!pr_asc_path(a, "kernel_details.csv", path, sizeof(path)))
        return PR_OK;
    st = pr_csv_open(path, a->max, &c, err);
    col_step = st == PR_OK ? pr_csv_col(c, "Step Id") : -1;
    col_start = st == PR_OK ? pr_csv_col(c, "Start Time(us)") : -1;
    if (st == PR_OK) /* the kernel reader names them */
        pr_csv_skip_ragged(c, -1);
    while (st == PR_OK && col_start >= 0 &&
           (st = pr_csv_next(c, &got, err)) == PR_OK && got) {
        size_t n, m;
        const char *s = pr_csv_field(c, col_step, &n);
        const char *t = pr_csv_field(c, col_start, &m);
        int64_t number = -1, start;

        if ((n == 0 || pr_asc_int(s, n, &number)) && pr_asc_us(t, m, &start) &&
            anchor_put(an, number, start) != PR_OK)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    pr_csv_close(c);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}

/* Host steps: their numbers and starts, the process that ran them, and
 * they stop being steps.  Device tasks: the first start. */
static enum pr_status
host_steps(struct pr_trace *t, struct anchors *host, uint32_t *pid,
           int64_t *first_task)
{
    size_t i;
    int64_t number;

    *first_task = INT64_MAX;
    for (i = 0; i < t->n_events; i++) {
        struct pr_event *e = &t->events[i];
        const char *name = pr_trace_str(t, e->name);

        if (e->kind == PR_KIND_DEVICE_TASK && e->ts_ns < *first_task)
            *first_task = e->ts_ns;
        if ((e->kind != PR_KIND_HOST_OP && e->kind != PR_KIND_ANNOTATION) ||
            strncmp(name, "ProfilerStep#", 13) != 0)
            continue;
        if (!pr_fld_parse_int64(name + 13, strlen(name + 13), &number))
            number = -1;
        if (anchor_put(host, number, e->ts_ns) != PR_OK)
            return PR_E_NOMEM;
        *pid = pr_event_pid(t, e);
        e->kind = PR_KIND_OTHER;
    }
    return PR_OK;
}

/* Where step r starts: see the head of the file. */
static int
start_of(const struct row *r, const struct anchors *dev,
         const struct anchors *host, int64_t first_task, int64_t *start)
{
    if (anchor_get(dev, r->number, start))
        return 1;
    if (anchor_get(host, r->number, start)) {
        *start += r->preparing > 0 ? r->preparing : 0;
        return 1;
    }
    *start = first_task;
    return first_task != INT64_MAX;
}

/* Where the steps of a run without any task begin: the first
 * collective communication.json gives (the step holds it), else 0. */
static int64_t
taskless_origin(const struct pr_trace *t)
{
    int64_t first = INT64_MAX;
    size_t i;

    for (i = 0; t->phases != NULL && i < t->phases->n_comm; i++)
        if (t->phases->comm[i].start_ns != PR_PHASE_UNKNOWN &&
            t->phases->comm[i].start_ns < first)
            first = t->phases->comm[i].start_ns;
    return first == INT64_MAX ? 0 : first;
}

static enum pr_status
add_steps(struct pr_asc *a, const struct table *tb, const struct anchors *dev,
          const struct anchors *host, uint32_t pid, int64_t first_task)
{
    char name[40];
    size_t i, placed = 0;
    int64_t next = taskless_origin(a->t);

    for (i = 0; i < tb->n; i++) {
        const struct row *r = &tb->v[i];
        struct pr_span s;

        memset(&s, 0, sizeof(s));
        if (!start_of(r, dev, host, first_task, &s.ts_ns)) {
            if (first_task != INT64_MAX || host->n > 0)
                continue;
            s.ts_ns = next; /* no task, no host step: back to back */
            placed++;
        }
        next = pr_sat_add_i64(s.ts_ns, r->dur);
        snprintf(name, sizeof(name), "ProfilerStep#%lld",
                 (long long)(r->number >= 0 ? r->number : 0));
        s.name = name;
        s.cat = "step_trace_time";
        s.pid = pid != PR_STR_NONE ? pr_trace_str(a->t, pid) : "";
        s.tid = "Step Trace";
        s.dur_ns = r->dur;
        s.external_id = s.correlation = PR_NO_ID;
        if (pr_trace_add_span(a->t, PR_KIND_ANNOTATION, &s, NULL) != PR_OK)
            return PR_E_NOMEM;
    }
    a->t->device_steps = tb->n > 0;
    if (placed == 0)
        return PR_OK;
    return pr_trace_add_gap(
        a->t, "steps_placed", placed,
        "no task of this rank is in its files (step_trace_time.csv without "
        "kernel_details.csv or trace_view.json): its steps have the "
        "producer's lengths and phases, placed back to back from its first "
        "collective; their start times are not in the files");
}

enum pr_status
pr_asc_steps(struct pr_asc *a, struct pr_error *err)
{
    char path[4096];
    struct table tb = {0};
    struct anchors dev = {0}, host = {0};
    uint32_t pid = PR_STR_NONE;
    int64_t first_task;
    enum pr_status st;

    if (!pr_asc_path(a, "step_trace_time.csv", path, sizeof(path)))
        return PR_OK;
    st = read_table(path, a, &tb, err);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    if (st == PR_OK)
        st = read_anchors(a, &dev, err);
    if (st == PR_OK && tb.n > 0 &&
        (host_steps(a->t, &host, &pid, &first_task) != PR_OK ||
         add_steps(a, &tb, &dev, &host, pid, first_task) != PR_OK))
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    free(tb.v);
    free(dev.v);
    free(host.v);
    return st;
}
