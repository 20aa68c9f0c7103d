/* step_pairs.c - which steps of two runs a comparison uses (issue #29):
 * when both runs number their steps (ProfilerStep#N), steps pair by that
 * number and the step figures of both sides are taken over the pairs
 * alone, so that a capture that also holds a warm-up step or one more
 * step is compared like with like; and how each run's steps were made
 * (ProfilerStep, another producer's step, none at all), for the
 * comparability checks (compat.c). */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/diff_stats.h"
#include "profreport/keys.h"
#include "profreport/rows.h"
#include "profreport/sget.h"

#define NOMEM(err) pr_error_set(err, PR_E_NOMEM, "out of memory")
#define PROFILER_STEP "ProfilerStep#"

/* The N of "ProfilerStep#N", or -1 for any other name. */
static long long
step_number(const char *name)
{
    size_t n = strlen(PROFILER_STEP);
    long long v = 0;
    const char *p;

    if (name == NULL || strncmp(name, PROFILER_STEP, n) != 0 || name[n] == '\0')
        return -1;
    for (p = name + n; *p != '\0'; p++) {
        if (*p < '0' || *p > '9' || v > (LLONG_MAX - 9) / 10)
            return -1;
        v = v * 10 + (*p - '0');
    }
    return v;
}

static int
has_diagnostic(const cJSON *run, const char *kind)
{
    void *rows = NULL;
    const struct pr_row_diagnostic *d;
    struct pr_error err = {PR_OK, ""};
    size_t n = 0, i;
    int has = 0;

    /* a saved summary's diagnostics were read whole when it was loaded */
    if (pr_rows_load(pr_sget(run, PR_K_DIAGNOSTICS), PR_K_DIAGNOSTICS,
                     PR_RO_RUNS_DIAGNOSTICS, &rows, &n, &err) != PR_OK)
        return 0;
    d = rows;
    for (i = 0; i < n && !has; i++)
        has = pr_sget_is(d[i].kind, kind);
    free(rows);
    return has;
}

/* The steps of run as typed rows (rows.h); *v owned (free()). */
static enum pr_status
run_steps(const cJSON *run, struct pr_row_step **v, size_t *n,
          struct pr_error *err)
{
    void *rows = NULL;
    enum pr_status st = pr_rows_load(pr_sget(run, PR_K_STEPS), PR_K_STEPS,
                                     PR_RO_RUNS_STEPS, &rows, n, err);

    *v = rows;
    return st;
}

/* How run's steps v[0..n) were made. */
static enum pr_dstep_source
source_of(const cJSON *run, const struct pr_row_step *v, size_t n)
{
    size_t i, numbered = 0;

    if (n == 0 || has_diagnostic(run, "no_steps"))
        return PR_DSTEPS_NONE;
    /* a trace without step markers counts its whole capture as one step,
       which the summary names "0" */
    if (n == 1 && pr_sget_is(v[0].name, "0"))
        return PR_DSTEPS_NONE;
    for (i = 0; i < n; i++)
        numbered += step_number(v[i].name) >= 0;
    return numbered == n ? PR_DSTEPS_PROFILER : PR_DSTEPS_NAMED;
}

const char *
pr_dstep_source_text(enum pr_dstep_source s)
{
    switch (s) {
    case PR_DSTEPS_PROFILER:
        return "ProfilerStep";
    case PR_DSTEPS_NAMED:
        return "named steps";
    case PR_DSTEPS_NONE:
        break;
    }
    return "no steps";
}

struct numbered {
    long long num;
    size_t at;
};

static int
cmp_numbered(const void *pa, const void *pb)
{
    const struct numbered *a = pa, *b = pb;

    if (a->num != b->num)
        return a->num < b->num ? -1 : 1;
    return (a->at > b->at) - (a->at < b->at);
}

/* The steps v[0..n) as (number, index), sorted by number; *out owned. */
static enum pr_status
numbers(const struct pr_row_step *v, size_t n, struct numbered **out,
        struct pr_error *err)
{
    size_t i;

    *out = calloc(n ? n : 1, sizeof(**out));
    if (*out == NULL)
        return NOMEM(err);
    for (i = 0; i < n; i++) {
        (*out)[i].num = step_number(v[i].name);
        (*out)[i].at = i;
    }
    qsort(*out, n, sizeof(**out), cmp_numbered);
    return PR_OK;
}

/* Mark the steps of both runs whose number the other run has too (a
 * number held twice in one run pairs once). */
static void
mark_common(const struct numbered *a, size_t na, const struct numbered *b,
            size_t nb, struct pr_dstep_pairs *p)
{
    size_t i = 0, j = 0;

    while (i < na && j < nb) {
        if (a[i].num < b[j].num) {
            i++;
        } else if (a[i].num > b[j].num) {
            j++;
        } else {
            p->keep[0][a[i].at] = 1;
            p->keep[1][b[j].at] = 1;
            p->n_paired++;
            i++;
            j++;
        }
    }
}

enum pr_status
pr_dstep_pair(const cJSON *rb, const cJSON *rc, struct pr_dstep_pairs *p,
              struct pr_error *err)
{
    struct numbered *a = NULL, *b = NULL;
    struct pr_row_step *sb = NULL, *sc = NULL;
    enum pr_status st;

    memset(p, 0, sizeof(*p));
    st = run_steps(rb, &sb, &p->n[0], err);
    if (st == PR_OK)
        st = run_steps(rc, &sc, &p->n[1], err);
    if (st == PR_OK) {
        p->src[0] = source_of(rb, sb, p->n[0]);
        p->src[1] = source_of(rc, sc, p->n[1]);
    }
    if (st != PR_OK || p->src[0] != PR_DSTEPS_PROFILER ||
        p->src[1] != PR_DSTEPS_PROFILER) {
        free(sb);
        free(sc);
        return st;
    }
    st = numbers(sb, p->n[0], &a, err);
    if (st == PR_OK)
        st = numbers(sc, p->n[1], &b, err);
    free(sb);
    free(sc);
    if (st == PR_OK) {
        p->keep[0] = calloc(p->n[0] + 1, 1);
        p->keep[1] = calloc(p->n[1] + 1, 1);
        if (p->keep[0] == NULL || p->keep[1] == NULL)
            st = NOMEM(err);
    }
    if (st == PR_OK)
        mark_common(a, p->n[0], b, p->n[1], p);
    free(a);
    free(b);
    /* no number in common (two schedules): every step, by position */
    if (st != PR_OK || p->n_paired == 0) {
        free(p->keep[0]);
        free(p->keep[1]);
        p->keep[0] = p->keep[1] = NULL;
    }
    p->by_number = st == PR_OK && p->n_paired > 0;
    return st;
}

void
pr_dstep_pairs_free(struct pr_dstep_pairs *p)
{
    free(p->keep[0]);
    free(p->keep[1]);
    p->keep[0] = p->keep[1] = NULL;
}

int
pr_dstep_all_kept(const struct pr_dstep_pairs *p, int side)
{
    return !p->drop_first[side] &&
           (p->keep[side] == NULL || p->n_paired == p->n[side]);
}

enum pr_status
pr_dstep_samples(const struct pr_dstep_pairs *p, int side, const cJSON *run,
                 const char *cat, double **out, size_t *n, struct pr_error *err)
{
    struct pr_row_step *v = NULL;
    size_t i, k = 0;
    enum pr_status st = run_steps(run, &v, &k, err);

    *n = 0;
    *out = st == PR_OK ? calloc(k ? k : 1, sizeof(**out)) : NULL;
    if (st == PR_OK && *out == NULL)
        st = NOMEM(err);
    for (i = 0; i < k && st == PR_OK; i++) {
        double x = cat == NULL ? v[i].duration_us
                               : pr_rows_num(PR_RO_RUNS_STEPS_BREAKDOWN_US,
                                             &v[i].breakdown, cat);
        int kept = p == NULL || p->keep[side] == NULL || p->keep[side][i];
        if (p != NULL && p->drop_first[side] && i == 0)
            kept = 0; /* the job's warm-up first step */
        if (kept && isfinite(x))
            (*out)[(*n)++] = x;
    }
    free(v);
    return st;
}

enum pr_status
pr_dstep_stat(const struct pr_dstep_pairs *p, int side, const cJSON *run,
              const char *cat, double q, double *out, struct pr_error *err)
{
    double *v = NULL;
    size_t n = 0;
    enum pr_status st = pr_dstep_samples(p, side, run, cat, &v, &n, err);

    *out = NAN;
    if (st == PR_OK && n > 0)
        st = q < 0 ? (*out = pr_stats_mean(v, n), PR_OK)
                   : pr_stats_quantile(v, n, q, out, err);
    free(v);
    return st;
}
