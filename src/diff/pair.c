/* pair.c - which run of the current summary pairs with which run of the
 * baseline (internal.h): the same rank, else the same worker name, else
 * the same position; always the first untaken run in order.  Indexed, so
 * that a job of many thousands of runs pairs in O(n log n) instead of
 * O(n^2): the current runs sorted by rank and by worker, each order with
 * "next untaken" links that skip paired runs (path-compressed, as in
 * union-find). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/sget.h"

#define NONE SIZE_MAX

struct key {
    const char *job;    /* the run's job ("" unless both sides hold
                           several jobs: runs pair within their job) */
    double rank;        /* by rank */
    const char *worker; /* by worker */
    size_t i;           /* the run's index: ties keep the runs' order */
};

/* One sorted view of the current runs: those with a key, by key. */
struct order {
    struct key *k; /* sorted */
    size_t *pos;   /* pos[run]: its place in k, NONE without a key */
    size_t *nx;    /* nx[p]: the first untaken place >= p, n when none */
    size_t n;
};

static int
cmp_rank(const void *pa, const void *pb)
{
    const struct key *a = pa, *b = pb;
    int c = strcmp(a->job, b->job);

    if (c != 0)
        return c;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

static int
cmp_worker(const void *pa, const void *pb)
{
    const struct key *a = pa, *b = pb;
    int c = strcmp(a->job, b->job);

    if (c == 0)
        c = strcmp(a->worker, b->worker);
    return c != 0 ? c : (a->i > b->i) - (a->i < b->i);
}

static void
order_free(struct order *o)
{
    free(o->k);
    free(o->pos);
    free(o->nx);
}

/* Build the order of the runs that have a key (by_rank: a numeric rank,
 * else a string worker). */
static enum pr_status
order_build(struct order *o, const cJSON *const *runs, const char *const *jobs,
            size_t n, int by_rank, struct pr_error *err)
{
    size_t i;

    memset(o, 0, sizeof(*o));
    o->k = calloc(n + 1, sizeof(*o->k));
    o->pos = malloc((n + 1) * sizeof(*o->pos));
    o->nx = malloc((n + 1) * sizeof(*o->nx));
    if (o->k == NULL || o->pos == NULL || o->nx == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < n; i++) {
        const cJSON *rank = pr_sget(runs[i], PR_K_RANK);
        const char *w = pr_dj_str(runs[i], PR_K_WORKER);
        o->pos[i] = NONE;
        if (by_rank ? !cJSON_IsNumber(rank) : w == NULL)
            continue;
        o->k[o->n].job = jobs[i];
        o->k[o->n].rank = by_rank ? rank->valuedouble : 0;
        o->k[o->n].worker = w;
        o->k[o->n++].i = i;
    }
    qsort(o->k, o->n, sizeof(*o->k), by_rank ? cmp_rank : cmp_worker);
    for (i = 0; i <= o->n; i++)
        o->nx[i] = i;
    for (i = 0; i < o->n; i++)
        o->pos[o->k[i].i] = i;
    return PR_OK;
}

/* The first untaken place >= p, compressing the path behind it. */
static size_t
next_free(struct order *o, size_t p)
{
    size_t root = p, next;

    while (o->nx[root] != root)
        root = o->nx[root];
    while (p != root) {
        next = o->nx[p];
        o->nx[p] = root;
        p = next;
    }
    return root;
}

static void
order_take(struct order *o, size_t run)
{
    size_t p = o->pos[run];

    if (p != NONE)
        o->nx[p] = p + 1;
}

/* The first untaken run whose key equals `want`'s, or NONE. */
static size_t
order_find(struct order *o, const struct key *want,
           int (*cmp)(const void *, const void *))
{
    size_t lo = 0, hi = o->n, p;
    struct key probe = *want;

    probe.i = 0; /* the lowest index with this key */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp(&o->k[mid], &probe) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    p = next_free(o, lo);
    if (p == o->n)
        return NONE;
    probe.i = o->k[p].i;
    return cmp(&o->k[p], &probe) == 0 ? o->k[p].i : NONE;
}

/* The current run for baseline run rb at position pos, or NONE. */
static size_t
match_one(struct order *by_rank, struct order *by_worker,
          const struct pr_dpairs *p, size_t pos)
{
    const cJSON *rb = p->b[pos];
    const cJSON *rank = pr_sget(rb, PR_K_RANK);
    struct key want = {p->job_b[pos], 0, pr_dj_str(rb, PR_K_WORKER), 0};
    size_t j;

    if (cJSON_IsNumber(rank)) {
        want.rank = rank->valuedouble;
        j = order_find(by_rank, &want, cmp_rank);
        if (j != NONE)
            return j;
    }
    if (want.worker != NULL) {
        j = order_find(by_worker, &want, cmp_worker);
        if (j != NONE)
            return j;
    }
    return pos < p->nc && !p->taken_c[pos] &&
                   strcmp(p->job_c[pos], p->job_b[pos]) == 0
               ? pos
               : NONE;
}

/* Runs of a summary as an array: cJSON_GetArrayItem walks the list, so a
 * loop over it would be quadratic. */
static enum pr_status
run_array(const cJSON *runs, const cJSON ***out, size_t *n,
          struct pr_error *err)
{
    const cJSON *r;
    size_t k = 0;

    *n = (size_t)cJSON_GetArraySize(runs);
    *out = malloc((*n + 1) * sizeof(**out));
    if (*out == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    cJSON_ArrayForEach(r, runs)
    {
        (*out)[k++] = r;
    }
    return PR_OK;
}

static enum pr_status
pair_all(struct pr_dpairs *p, struct pr_error *err)
{
    struct order by_rank, by_worker;
    enum pr_status st;
    size_t i, j;

    memset(&by_rank, 0, sizeof(by_rank));
    memset(&by_worker, 0, sizeof(by_worker));
    st = order_build(&by_rank, p->c, p->job_c, p->nc, 1, err);
    if (st == PR_OK)
        st = order_build(&by_worker, p->c, p->job_c, p->nc, 0, err);
    for (i = 0; i < p->nb && st == PR_OK; i++) {
        /* a one-run summary always pairs with a one-run summary (two
           single-GPU nightlies need not share a rank) */
        j = p->nb == 1 && p->nc == 1 ? 0
                                     : match_one(&by_rank, &by_worker, p, i);
        p->with[i] = j;
        if (j == NONE)
            continue;
        p->taken_c[j] = 1;
        order_take(&by_rank, j);
        order_take(&by_worker, j);
    }
    order_free(&by_rank);
    order_free(&by_worker);
    return st;
}

/* The length of the folder every job's path is in (cut at a '/'). */
static size_t
common_folder(const cJSON *jobs)
{
    const cJSON *job;
    const char *first = NULL;
    size_t len = 0, k;

    cJSON_ArrayForEach(job, jobs)
    {
        const char *p = pr_dj_str(job, PR_K_PATH);
        if (p == NULL)
            p = "";
        if (first == NULL) {
            first = p;
            len = strlen(p);
        }
        for (k = 0; k < len && p[k] == first[k]; k++)
            ;
        len = k;
        while (len > 0 && p[len] != '\0' && p[len] != '/')
            len--;
    }
    return len;
}

/* Whether a job entry is a memory timeline's (its kind; older summaries
 * without one: its name carries no " #N" either way). */
static int
memtl_entry(const cJSON *job)
{
    const char *kind = pr_dj_str(job, PR_K_KIND);

    return kind != NULL && strcmp(kind, "memory_timeline") == 0;
}

/* A job's key across summaries: its folder below the folder all its
 * summary's jobs share, and " #N" where that folder holds several jobs of
 * traces, N its place among them (the two sides of a diff are read from
 * different folders).  The place, not the name: a job of one run is
 * named by its worker (review 21 #4), the same job as the other side's
 * "#1". */
static char *
job_key(const cJSON *jobs, const cJSON *job, size_t common)
{
    const char *path = pr_dj_str(job, PR_K_PATH), *full = path;
    const cJSON *o;
    size_t len, of = 0, nth = 0;
    char *k, num[32] = "";

    if (full == NULL)
        full = "";
    cJSON_ArrayForEach(o, jobs)
    {
        const char *op = pr_dj_str(o, PR_K_PATH);
        if (memtl_entry(o) || strcmp(op != NULL ? op : "", full) != 0)
            continue;
        of++;
        if (o == job)
            nth = of;
    }
    if (of > 1 && nth > 0)
        snprintf(num, sizeof(num), " #%zu", nth);
    path = path != NULL && strlen(path) >= common ? path + common : "";
    while (*path == '/')
        path++;
    len = strlen(path) + strlen(num) + 2;
    k = malloc(len);
    if (k != NULL)
        snprintf(k, len, "%s%s", path, num);
    return k;
}

/* names[i]: the key of the job of run i, when the summary's "jobs"
 * (issue #15) is given; else "" for every run.  The keys are kept in
 * p->keys. */
static enum pr_status
job_names(struct pr_dpairs *p, const cJSON *jobs, size_t n, const char ***names,
          struct pr_error *err)
{
    const cJSON *job, *e;
    size_t i, common = common_folder(jobs);
    char **keys;

    *names = malloc((n + 1) * sizeof(**names));
    keys = realloc(p->keys, (p->n_keys + (size_t)cJSON_GetArraySize(jobs) + 1) *
                                sizeof(*keys));
    if (keys != NULL)
        p->keys = keys;
    if (*names == NULL || keys == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < n; i++)
        (*names)[i] = "";
    cJSON_ArrayForEach(job, jobs)
    {
        char *key = job_key(jobs, job, common);
        if (key == NULL)
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
        p->keys[p->n_keys++] = key;
        cJSON_ArrayForEach(e, pr_sget(job, PR_K_RUNS))
        {
            if (cJSON_IsNumber(e) && e->valuedouble >= 0 &&
                e->valuedouble < (double)n)
                (*names)[(size_t)e->valuedouble] = key;
        }
    }
    return PR_OK;
}

enum pr_status
pr_dpair_runs(const cJSON *base, const cJSON *cur, struct pr_dpairs *p,
              struct pr_error *err)
{
    const cJSON *jb = pr_sget(base, PR_K_JOBS);
    const cJSON *jc = pr_sget(cur, PR_K_JOBS);
    enum pr_status st;

    memset(p, 0, sizeof(*p));
    /* runs pair within their job only when both sides hold several */
    if (cJSON_GetArraySize(jb) < 2 || cJSON_GetArraySize(jc) < 2)
        jb = jc = NULL;
    st = run_array(pr_sget(base, PR_K_RUNS), &p->b, &p->nb, err);
    if (st == PR_OK)
        st = run_array(pr_sget(cur, PR_K_RUNS), &p->c, &p->nc, err);
    if (st == PR_OK)
        st = job_names(p, jb, p->nb, &p->job_b, err);
    if (st == PR_OK)
        st = job_names(p, jc, p->nc, &p->job_c, err);
    if (st != PR_OK)
        return st;
    p->with = malloc((p->nb + 1) * sizeof(*p->with));
    p->taken_c = calloc(p->nc + 1, 1);
    if (p->with == NULL || p->taken_c == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return pair_all(p, err);
}

void
pr_dpairs_free(struct pr_dpairs *p)
{
    if (p == NULL)
        return;
    free(p->b);
    free(p->c);
    free(p->job_b);
    free(p->job_c);
    while (p->n_keys > 0)
        free(p->keys[--p->n_keys]);
    free(p->keys);
    free(p->with);
    free(p->taken_c);
    memset(p, 0, sizeof(*p));
}
