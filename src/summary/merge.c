/* merge.c - several saved summaries into one job (merge.h).  Per-rank
 * summaries written apart (a Slurm array, xargs -P) are joined here: their
 * inputs and runs in the order given.  The job-level views (distributed,
 * job) are read from the runs alone, so the caller recomputes them over
 * the joined runs (pr_summary_finish) rather than this step merging them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "profreport/merge.h"

/* One run of the joined job and the summary it came from. */
struct run_ref {
    const cJSON *run;
    size_t from;
};

static const char *
str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsString(v) ? v->valuestring : "";
}

static double
rank_of(const cJSON *run)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, "rank");

    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* Worker, span, then rank: the name of a run within a job. */
static int
cmp_ref(const void *pa, const void *pb)
{
    const struct run_ref *a = pa, *b = pb;
    int c = strcmp(str_of(a->run, "worker"), str_of(b->run, "worker"));
    double ra, rb;

    if (c == 0)
        c = strcmp(str_of(a->run, "span"), str_of(b->run, "span"));
    if (c != 0)
        return c;
    ra = rank_of(a->run);
    rb = rank_of(b->run);
    return (ra > rb) - (ra < rb);
}

/* A run given twice (the same summary passed twice, or two summaries of
 * the same rank) would count its rank twice in every job figure. */
static enum pr_status
check_unique(cJSON **sums, const char *const *names, size_t n,
             struct pr_error *err)
{
    struct run_ref *v;
    size_t i, m = 0, total = 0;
    const cJSON *r;
    enum pr_status st = PR_OK;

    for (i = 0; i < n; i++)
        total += (size_t)cJSON_GetArraySize(
            cJSON_GetObjectItemCaseSensitive(sums[i], "runs"));
    v = calloc(total > 0 ? total : 1, sizeof(*v));
    if (v == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < n; i++)
        cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(sums[i], "runs"))
        {
            v[m].run = r;
            v[m++].from = i;
        }
    qsort(v, m, sizeof(*v), cmp_ref);
    for (i = 1; i < m && st == PR_OK; i++)
        if (cmp_ref(&v[i - 1], &v[i]) == 0)
            st = pr_error_set(
                err, PR_E_FORMAT,
                "%s and %s: both hold run '%s'%s%s (rank %.0f): give each "
                "rank's summary once",
                names[v[i - 1].from], names[v[i].from],
                str_of(v[i].run, "worker"),
                *str_of(v[i].run, "span") != '\0' ? ", span " : "",
                str_of(v[i].run, "span"), rank_of(v[i].run));
    free(v);
    return st;
}

/* Move the items of from's array `key` to the end of to's. */
static int
move_items(cJSON *to, cJSON *from, const char *key)
{
    cJSON *src = cJSON_GetObjectItemCaseSensitive(from, key);
    cJSON *dst = cJSON_GetObjectItemCaseSensitive(to, key);

    if (!cJSON_IsArray(src) || !cJSON_IsArray(dst))
        return 0;
    while (cJSON_GetArraySize(src) > 0)
        if (!cJSON_AddItemToArray(dst, cJSON_DetachItemFromArray(src, 0)))
            return 0;
    return 1;
}

enum pr_status
pr_merge_summaries(cJSON **sums, const char *const *names, size_t n,
                   cJSON **out, struct pr_error *err)
{
    enum pr_status st = n > 1 ? check_unique(sums, names, n, err) : PR_OK;
    size_t i;

    *out = NULL;
    for (i = 1; i < n && st == PR_OK; i++)
        if (!move_items(sums[0], sums[i], "inputs") ||
            !move_items(sums[0], sums[i], "runs"))
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (i = 1; i < n; i++) {
        cJSON_Delete(sums[i]);
        sums[i] = NULL;
    }
    if (st != PR_OK) {
        cJSON_Delete(sums[0]);
        sums[0] = NULL;
        return st;
    }
    *out = sums[0];
    sums[0] = NULL;
    return PR_OK;
}
