/* pmu.c - the trace's table of per-task hardware counters (pmu.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/pmu.h"

int
pr_pmu_set_cols(struct pr_trace *t, const char *const *names, size_t n)
{
    struct pr_pmu *p;
    size_t i;

    if (t->pmu != NULL || n == 0)
        return 0;
    p = calloc(1, sizeof(*p));
    if (p == NULL || (p->cols = calloc(n, sizeof(*p->cols))) == NULL) {
        free(p);
        return -1;
    }
    for (i = 0; i < n; i++) {
        p->cols[i] = pr_strtab_intern(t->strs, names[i], strlen(names[i]));
        if (p->cols[i] == PR_STR_NONE) {
            pr_pmu_free(p);
            return -1;
        }
    }
    p->n_cols = n;
    p->row_size = sizeof(uint32_t) + n * sizeof(float);
    t->pmu = p;
    return 1;
}

int
pr_pmu_map(struct pr_trace *t, const char *const *names, size_t n, int *idx)
{
    size_t i, k;
    int got = 0;

    if (n == 0)
        return 0;
    if (t->pmu == NULL && pr_pmu_set_cols(t, names, n) < 0)
        return -1;
    for (i = 0; i < n; i++) {
        idx[i] = -1;
        for (k = 0; k < t->pmu->n_cols && idx[i] < 0; k++)
            if (strcmp(pr_trace_str(t, t->pmu->cols[k]), names[i]) == 0)
                idx[i] = (int)k;
        got += idx[i] >= 0;
    }
    return got;
}

static uint32_t
row_gpu(const unsigned char *row)
{
    uint32_t g;

    memcpy(&g, row, sizeof(g));
    return g;
}

float *
pr_pmu_row(struct pr_trace *t, uint32_t gpu)
{
    struct pr_pmu *p = t->pmu;
    unsigned char *row;
    float *v;
    size_t i;

    if (p == NULL)
        return NULL;
    /* readers add a task's counters in one go: its row is the last one */
    if (p->n_rows > 0 &&
        row_gpu(p->rows + (p->n_rows - 1) * p->row_size) == gpu)
        return (float *)(void *)(p->rows + (p->n_rows - 1) * p->row_size +
                                 sizeof(uint32_t));
    if (pr_grow((void **)&p->rows, &p->cap_rows, p->n_rows + 1, p->row_size) !=
        PR_OK)
        return NULL;
    row = p->rows + p->n_rows++ * p->row_size;
    memcpy(row, &gpu, sizeof(gpu));
    v = (float *)(void *)(row + sizeof(uint32_t));
    for (i = 0; i < p->n_cols; i++)
        v[i] = NAN;
    p->sorted = 0;
    return v;
}

static int
cmp_row(const void *a, const void *b)
{
    uint32_t x = row_gpu(a), y = row_gpu(b);

    return x < y ? -1 : x > y;
}
/* Row `from`'s values into row `to`: where both have one, the larger
 * (qsort keeps no order among a task's rows, and the larger does not
 * depend on it). */
static void
merge_row(const struct pr_pmu *p, unsigned char *to, const unsigned char *from)
{
    float x, y;
    size_t i, off;

    for (i = 0; i < p->n_cols; i++) {
        off = sizeof(uint32_t) + i * sizeof(float);
        memcpy(&x, to + off, sizeof(x));
        memcpy(&y, from + off, sizeof(y));
        if (isnan(x) || (!isnan(y) && y > x))
            memcpy(to + off, &y, sizeof(y));
    }
}

void
pr_pmu_finish(struct pr_trace *t)
{
    struct pr_pmu *p = t->pmu;
    size_t i, k = 0;

    if (p == NULL || p->sorted)
        return;
    if (p->n_rows > 1)
        qsort(p->rows, p->n_rows, p->row_size, cmp_row);
    for (i = 0; i < p->n_rows; i++) { /* one row per task */
        unsigned char *row = p->rows + i * p->row_size;

        if (k > 0 && row_gpu(p->rows + (k - 1) * p->row_size) == row_gpu(row))
            merge_row(p, p->rows + (k - 1) * p->row_size, row);
        else if (k++ != i)
            memmove(p->rows + (k - 1) * p->row_size, row, p->row_size);
    }
    p->n_rows = k;
    p->sorted = 1;
}

const float *
pr_pmu_get(const struct pr_trace *t, uint32_t gpu)
{
    const struct pr_pmu *p = t->pmu;
    size_t lo = 0, hi;

    if (p == NULL || !p->sorted)
        return NULL;
    hi = p->n_rows;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (row_gpu(p->rows + mid * p->row_size) < gpu)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == p->n_rows || row_gpu(p->rows + lo * p->row_size) != gpu)
        return NULL;
    return (const float *)(const void *)(p->rows + lo * p->row_size +
                                         sizeof(uint32_t));
}

void
pr_pmu_free(struct pr_pmu *p)
{
    if (p == NULL)
        return;
    free(p->cols);
    free(p->rows);
    free(p);
}
