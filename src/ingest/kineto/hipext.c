/* hipext.c - the grid of a kernel launched with hipExtModuleLaunchKernel.
 * HIP's public header (include/hip/hip_ext.h, "hipExtModuleLaunchKernel(
 * hipFunction_t f, uint32_t globalWorkSizeX, ..., uint32_t localWorkSizeX,
 * ...)", rocm.docs.amd.com/projects/HIP, hip_ext.h File Reference) takes
 * the global work size in work-items, not a count of workgroups, and
 * Kineto's "grid" for such a launch is that size (hipBLASLt's Cijk_*,
 * MIOpen's igemm_* and batched_transpose_* kernels: grid [401408,1,1]
 * with block [256,1,1] is 1,568 workgroups).  Its deprecated twin
 * hipHccModuleLaunchKernel takes the same arguments.  Every other launch
 * (hipLaunchKernel, hipModuleLaunchKernel, cudaLaunchKernel) records
 * workgroups (blocks), which is what the model's grid holds: this pass
 * divides each dim of such a kernel's grid by its block dim, rounding up
 * (a partial workgroup still runs), before any analysis reads it. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"

static const char *const global_size_apis[] = {
    "hipExtModuleLaunchKernel",
    "hipHccModuleLaunchKernel",
};

#define N_APIS (sizeof(global_size_apis) / sizeof(global_size_apis[0]))

static int
cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return (x > y) - (x < y);
}

static int
is_global_size_call(const struct pr_event *e, const uint32_t *names)
{
    size_t i;

    if (e->kind != PR_KIND_RUNTIME_CALL)
        return 0;
    for (i = 0; i < N_APIS; i++)
        if (names[i] != PR_STR_NONE && e->name == names[i])
            return 1;
    return 0;
}

/* grid in work-items -> workgroups, dim by dim; left as it is when a
 * dim is missing (0) */
static void
to_workgroups(struct pr_gpu_info *g)
{
    int i;

    for (i = 0; i < 3; i++)
        if (g->grid[i] <= 0 || g->block[i] <= 0)
            return;
    for (i = 0; i < 3; i++)
        g->grid[i] =
            (int32_t)(((int64_t)g->grid[i] + g->block[i] - 1) / g->block[i]);
}

enum pr_status
pr_ingest_hip_global_grids(struct pr_trace *t)
{
    uint32_t names[N_APIS];
    int64_t *ids = NULL;
    size_t i, n = 0, any = 0;

    for (i = 0; i < N_APIS; i++) {
        names[i] = pr_strtab_find(t->strs, global_size_apis[i],
                                  strlen(global_size_apis[i]));
        any += names[i] != PR_STR_NONE;
    }
    if (any == 0)
        return PR_OK; /* the common case: no such launch at all */
    for (i = 0; i < t->n_events; i++)
        n += is_global_size_call(&t->events[i], names) &&
             pr_event_correlation(t, &t->events[i]) != PR_NO_ID;
    if (n == 0)
        return PR_OK;
    ids = malloc(n * sizeof(*ids));
    if (ids == NULL)
        return PR_E_NOMEM;
    n = 0;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        int64_t c = pr_event_correlation(t, e);

        if (is_global_size_call(e, names) && c != PR_NO_ID)
            ids[n++] = c;
    }
    qsort(ids, n, sizeof(*ids), cmp_i64);
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        int64_t c;

        if (e->kind != PR_KIND_DEVICE_TASK || e->info == PR_NO_INFO ||
            e->info >= t->n_gpu)
            continue;
        c = pr_event_correlation(t, e);
        if (c != PR_NO_ID && bsearch(&c, ids, n, sizeof(*ids), cmp_i64))
            to_workgroups(&t->gpu[e->info]);
    }
    free(ids);
    return PR_OK;
}
