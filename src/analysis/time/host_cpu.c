/* host_cpu.c - run.host_cpu (docs/summary-json.md): the host's CPU use the
 * producer sampled, reduced to means per scope, and a reading of whether
 * the data pipeline is bound by the host's CPUs.  MindSpore's sampler
 * writes the machine's share of all CPUs but a process's or an operator's
 * share of one core, so an operator's share divided by its workers says
 * how busy each worker was (MindSpore's own "utilization per thread"). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/host_cpu.h"
#include "profreport/keys.h"
#include "profreport/rows.h"

#include "../internal.h"

/* Means of one series over the window. */
struct means {
    double user, sys, io, idle, busy, busy_max;
};

/* One operator's row, for sorting. */
struct op_row {
    const struct pr_cpu_series *s;
    struct means m;
    double per_worker; /* NaN without a worker count */
};

static double
round1(double v)
{
    return isnan(v) ? v : round(v * 10.0) / 10.0;
}

/* Mean of v over [lo, hi), NaN values left out; NaN when none is left. */
static double
mean(const double *v, size_t lo, size_t hi)
{
    double sum = 0;
    size_t i, n = 0;

    for (i = lo; v != NULL && i < hi; i++)
        if (!isnan(v[i])) {
            sum += v[i];
            n++;
        }
    return n ? sum / (double)n : NAN;
}

/* The middle half of n samples, as MindSpore's analyser reads them. */
static void
window(size_t n, size_t *lo, size_t *hi)
{
    *lo = n / 4;
    *hi = n - n / 4;
}

static struct means
series_means(const struct pr_cpu_series *s)
{
    struct means m;
    size_t lo, hi, i;

    window(s->n, &lo, &hi);
    m.user = mean(s->user, lo, hi);
    m.sys = mean(s->sys, lo, hi);
    m.io = mean(s->io, lo, hi);
    m.idle = mean(s->idle, lo, hi);
    m.busy = isnan(m.user) ? m.sys : isnan(m.sys) ? m.user : m.user + m.sys;
    m.busy_max = NAN;
    for (i = lo; i < hi; i++) {
        double b = (isnan(s->user[i]) ? 0 : s->user[i]) +
                   (isnan(s->sys[i]) ? 0 : s->sys[i]);
        if (!isnan(s->user[i]) || !isnan(s->sys[i]))
            m.busy_max = isnan(m.busy_max) || b > m.busy_max ? b : m.busy_max;
    }
    return m;
}

static const struct pr_cpu_series *
scope_series(const struct pr_cpu_use *u, enum pr_cpu_scope k)
{
    size_t i;

    for (i = 0; i < u->n_series; i++)
        if (u->series[i].scope == k)
            return &u->series[i];
    return NULL;
}

static int
cmp_rows(const void *a, const void *b)
{
    const struct op_row *x = a, *y = b;
    double bx = isnan(x->m.busy) ? -1 : x->m.busy;
    double by = isnan(y->m.busy) ? -1 : y->m.busy;

    if (bx != by)
        return bx > by ? -1 : 1;
    return x->s->op_id < y->s->op_id ? -1 : x->s->op_id > y->s->op_id;
}

/* The operators, busiest first; *n of them.  NULL (and *n 0) when there
 * are none or memory ran out (*nomem then). */
static struct op_row *
op_rows(const struct pr_cpu_use *u, size_t *n, int *nomem)
{
    struct op_row *r = malloc((u->n_series ? u->n_series : 1) * sizeof(*r));
    size_t i;

    *n = 0;
    *nomem = r == NULL;
    for (i = 0; r != NULL && i < u->n_series; i++) {
        const struct pr_cpu_series *s = &u->series[i];

        if (s->scope != PR_CPU_OP)
            continue;
        r[*n].s = s;
        r[*n].m = series_means(s);
        r[*n].per_worker =
            s->workers > 0 ? r[*n].m.busy / (double)s->workers : NAN;
        (*n)++;
    }
    if (*n > 1)
        qsort(r, *n, sizeof(*r), cmp_rows);
    return r;
}

static void
op_label(const struct pr_trace *t, const struct pr_cpu_series *s, char *b,
         size_t cap)
{
    if (s->op_type != PR_STR_NONE)
        snprintf(b, cap, "%s (op %lld)", pr_trace_str(t, s->op_type),
                 (long long)s->op_id);
    else if (s->op_id < 0)
        snprintf(b, cap, "the pipeline's threads of no operator");
    else
        snprintf(b, cap, "op %lld", (long long)s->op_id);
}

/* The busiest operator per worker, or NULL when no operator has a worker
 * count. */
static const struct op_row *
busiest_worker(const struct op_row *r, size_t n)
{
    const struct op_row *best = NULL;
    size_t i;

    for (i = 0; i < n; i++)
        if (!isnan(r[i].per_worker) &&
            (best == NULL || r[i].per_worker > best->per_worker))
            best = &r[i];
    return best;
}

/* The smallest and largest user + sys + io + idle of one machine sample
 * in the window the means are over (each a share of all CPUs, so about
 * 100; an all-zero sample left out): 1 when some sample gives all four
 * and one sum is off by more than 10 points (a
 * synthetic or damaged file: mindspore ascend_run2's three samples sum to
 * 40, 60 and 80, third review finding 11). */
static int
sums_off(const struct pr_cpu_series *s, double *lo, double *hi)
{
    size_t i, w0, w1;
    int any = 0;

    if (s == NULL || s->user == NULL || s->sys == NULL || s->io == NULL ||
        s->idle == NULL)
        return 0;
    window(s->n, &w0, &w1); /* the samples the means are over */
    for (i = w0; i < w1; i++) {
        double v = s->user[i] + s->sys[i] + s->io[i] + s->idle[i];

        if (isnan(v) || v == 0) /* a sampler's empty first record */
            continue;
        if (!any || v < *lo)
            *lo = v;
        if (!any || v > *hi)
            *hi = v;
        any = 1;
    }
    return any && (*lo < 90.0 || *hi > 110.0);
}

int
pr_host_cpu_note(const struct pr_trace *t, char *text, size_t cap)
{
    const struct pr_cpu_use *u = t->cpu_use;
    double lo = 0, hi = 0;

    if (u == NULL || !sums_off(scope_series(u, PR_CPU_MACHINE), &lo, &hi))
        return 0;
    snprintf(text, cap,
             "The host CPU sampler's machine-wide shares do not add up: user "
             "+ sys + io + idle is %.0f%% to %.0f%% per sample where it is "
             "about 100%% (a synthetic or damaged minddata_cpu_utilization "
             "file), so the Host CPU figures are shown but not read: no "
             "advice from them.",
             lo, hi);
    return 1;
}

/* What the numbers say, in the order a user acts on them: a saturated
 * host first (more workers cannot help), then an operator whose workers
 * are busy while CPU is spare (MindSpore's own advice), then I/O wait. */
static void
reading(const struct pr_trace *t, const struct means *mach,
        const struct op_row *rows, size_t n, char *b, size_t cap)
{
    const struct op_row *w = busiest_worker(rows, n);
    double busy = mach ? mach->busy : NAN;
    char name[160];
    size_t len;

    if (!isnan(busy) && busy >= PR_HOST_CPU_BUSY_PCT)
        snprintf(b, cap,
                 "The host's CPUs were %.0f%% busy: the host is saturated, so "
                 "more data-pipeline workers will not help; lighten the "
                 "preprocessing or move it to the device.",
                 busy);
    else if (w != NULL && w->per_worker > PR_HOST_CPU_WORKER_PCT) {
        op_label(t, w->s, name, sizeof(name));
        snprintf(b, cap,
                 "%s keeps each of its %d workers %.0f%% busy while the "
                 "host has CPU to spare: raise its num_parallel_workers.",
                 name, (int)w->s->workers, w->per_worker);
    } else if (!isnan(busy))
        snprintf(b, cap,
                 "The data pipeline is not bound by the host's CPUs: they "
                 "were %.0f%% busy and no operator's workers were over "
                 "%.0f%% busy.",
                 busy, PR_HOST_CPU_WORKER_PCT);
    else
        snprintf(b, cap, "The sampler recorded no machine-wide CPU use.");
    len = strlen(b);
    if (mach != NULL && !isnan(mach->io) && mach->io >= PR_HOST_CPU_IO_PCT &&
        len < cap)
        snprintf(b + len, cap - len,
                 " %.0f%% of the CPU time waited on I/O: the dataset is read "
                 "from slow storage; cache it or keep it on a local disk.",
                 mach->io);
}

/* A scope's means as its typed row (a machine's, or a process's, which
 * has no io or idle share): NULL (null) where the file samples no such
 * scope; *ok 0 when out of memory. */
static cJSON *
scope_row(const struct pr_cpu_series *s, struct means *m, int *ok)
{
    cJSON *o;

    if (s == NULL || !*ok)
        return NULL;
    *m = series_means(s);
    if (s->scope == PR_CPU_MACHINE) {
        struct pr_row_cpu_machine r = {
            .user_pct = round1(m->user),
            .sys_pct = round1(m->sys),
            .io_pct = round1(m->io),
            .idle_pct = round1(m->idle),
            .busy_pct = round1(m->busy),
            .busy_max_pct = round1(m->busy_max),
        };
        o = pr_rows_row(PR_RO_RUNS_HOST_CPU_MACHINE, &r);
    } else {
        struct pr_row_cpu_process r = {
            .user_pct = round1(m->user),
            .sys_pct = round1(m->sys),
            .busy_pct = round1(m->busy),
            .busy_max_pct = round1(m->busy_max),
        };
        o = pr_rows_row(PR_RO_RUNS_HOST_CPU_PROCESS, &r);
    }
    *ok = o != NULL;
    return o;
}

static void
emit_ops(const struct pr_trace *t, cJSON *arr, const struct op_row *r, size_t n,
         int *ok)
{
    size_t i;

    for (i = 0; arr != NULL && *ok && i < n; i++) {
        struct pr_row_host_cpu_op row = {
            .op_id = r[i].s->op_id,
            .op_type = r[i].s->op_type != PR_STR_NONE
                           ? pr_trace_str(t, r[i].s->op_type)
                           : NULL,
            .workers = r[i].s->workers >= 0 ? r[i].s->workers : NAN,
            .user_pct = round1(r[i].m.user),
            .sys_pct = round1(r[i].m.sys),
            .busy_pct = round1(r[i].m.busy),
            .busy_max_pct = round1(r[i].m.busy_max),
            .per_worker_pct = round1(r[i].per_worker),
        };

        *ok = pr_rows_write(arr, PR_RO_RUNS_HOST_CPU_OPS, &row, 1);
    }
}

static size_t
max_samples(const struct pr_cpu_use *u)
{
    size_t i, n = 0;

    for (i = 0; i < u->n_series; i++)
        n = u->series[i].n > n ? u->series[i].n : n;
    return n;
}

/* host_cpu as its typed row (rows.def): its scopes' rows and its
 * operators' typed rows held as JSON fields. */
enum pr_status
pr_host_cpu_fill(const struct pr_trace *t, cJSON *run, struct pr_error *err)
{
    const struct pr_cpu_use *u = t->cpu_use;
    struct means mach, proc;
    struct op_row *rows;
    struct pr_row_host_cpu r = {.absent = 0};
    size_t n_rows, lo, hi;
    int ok = 1, nomem;
    char text[600];
    cJSON *mc, *pc, *ops = NULL, *o = NULL;

    if (u == NULL || u->n_series == 0)
        return PR_OK;
    cJSON_DeleteItemFromObjectCaseSensitive(run, PR_K_HOST_CPU);
    rows = op_rows(u, &n_rows, &nomem);
    r.samples = (int64_t)max_samples(u);
    window((size_t)r.samples, &lo, &hi);
    r.window_samples = (int64_t)(hi - lo);
    r.sampling_interval_ms = u->interval_ms >= 0 ? (double)u->interval_ms : NAN;
    r.cpus = u->cpus >= 0 ? u->cpus : NAN;
    ok = !nomem;
    mc = scope_row(scope_series(u, PR_CPU_MACHINE), &mach, &ok);
    pc = scope_row(scope_series(u, PR_CPU_PROCESS), &proc, &ok);
    r.machine = mc;
    r.process = pc;
    ops = ok ? cJSON_CreateArray() : NULL;
    ok = ops != NULL;
    emit_ops(t, ops, rows, n_rows, &ok);
    r.ops = ops;
    if (ok && !pr_host_cpu_note(t, text, sizeof(text))) {
        reading(t, scope_series(u, PR_CPU_MACHINE) ? &mach : NULL, rows, n_rows,
                text, sizeof(text));
        r.reading = text;
    } /* else not read (data quality): null */
    if (ok)
        o = pr_rows_row(PR_RO_RUNS_HOST_CPU, &r);
    cJSON_Delete(mc);
    cJSON_Delete(pc);
    cJSON_Delete(ops);
    free(rows);
    if (o == NULL || !cJSON_AddItemToObject(run, PR_K_HOST_CPU, o)) {
        cJSON_Delete(o);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    return PR_OK;
}
