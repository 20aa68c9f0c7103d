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
    const cJSON *d;

    cJSON_ArrayForEach(d, pr_sget(run, PR_K_DIAGNOSTICS))
    {
        if (pr_sget_is(pr_dj_str(d, PR_K_KIND), kind))
            return 1;
    }
    return 0;
}

enum pr_dstep_source
pr_dstep_source(const cJSON *run)
{
    const cJSON *steps = pr_sget(run, PR_K_STEPS), *s;
    int n = cJSON_GetArraySize(steps), numbered = 0;

    if (n == 0 || has_diagnostic(run, "no_steps"))
        return PR_DSTEPS_NONE;
    /* a trace without step markers counts its whole capture as one step,
       which the summary names "0" */
    if (n == 1 &&
        pr_sget_is(pr_dj_str(cJSON_GetArrayItem(steps, 0), PR_K_NAME), "0"))
        return PR_DSTEPS_NONE;
    cJSON_ArrayForEach(s, steps)
    {
        numbered += step_number(pr_dj_str(s, PR_K_NAME)) >= 0;
    }
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

/* The steps of run as (number, index), sorted by number; *out owned. */
static enum pr_status
numbers(const cJSON *run, struct numbered **out, size_t *n,
        struct pr_error *err)
{
    const cJSON *s;
    size_t i = 0;

    *n = (size_t)cJSON_GetArraySize(pr_sget(run, PR_K_STEPS));
    *out = calloc(*n ? *n : 1, sizeof(**out));
    if (*out == NULL)
        return NOMEM(err);
    cJSON_ArrayForEach(s, pr_sget(run, PR_K_STEPS))
    {
        (*out)[i].num = step_number(pr_dj_str(s, PR_K_NAME));
        (*out)[i].at = i;
        i++;
    }
    qsort(*out, *n, sizeof(**out), cmp_numbered);
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
    enum pr_status st;

    memset(p, 0, sizeof(*p));
    p->src[0] = pr_dstep_source(rb);
    p->src[1] = pr_dstep_source(rc);
    p->n[0] = (size_t)cJSON_GetArraySize(pr_sget(rb, PR_K_STEPS));
    p->n[1] = (size_t)cJSON_GetArraySize(pr_sget(rc, PR_K_STEPS));
    if (p->src[0] != PR_DSTEPS_PROFILER || p->src[1] != PR_DSTEPS_PROFILER)
        return PR_OK;
    st = numbers(rb, &a, &p->n[0], err);
    if (st == PR_OK)
        st = numbers(rc, &b, &p->n[1], err);
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
    return p->keep[side] == NULL || p->n_paired == p->n[side];
}

enum pr_status
pr_dstep_samples(const struct pr_dstep_pairs *p, int side, const cJSON *run,
                 const char *cat, double **out, size_t *n, struct pr_error *err)
{
    const cJSON *steps = pr_sget(run, PR_K_STEPS);
    const cJSON *s;
    size_t i = 0;
    int size = cJSON_GetArraySize(steps);

    *n = 0;
    *out = calloc(size > 0 ? (size_t)size : 1, sizeof(**out));
    if (*out == NULL)
        return NOMEM(err);
    cJSON_ArrayForEach(s, steps)
    {
        double v = cat == NULL ? pr_dj_num(s, PR_K_DURATION_US)
                               : pr_dj_num(pr_sget(s, PR_K_BREAKDOWN_US), cat);
        int kept = p == NULL || p->keep[side] == NULL || p->keep[side][i];
        if (kept && isfinite(v))
            (*out)[(*n)++] = v;
        i++;
    }
    return PR_OK;
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
