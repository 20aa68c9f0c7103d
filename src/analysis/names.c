/* names.c - classifies interned names once per distinct string id instead
 * of once per event: a trace repeats a few thousand names millions of
 * times, and the tensor-core patterns alone are 30 strstr calls a name.
 * The predicates themselves live in tree.c and tensorcore.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profreport/comm.h"
#include "profreport/tensorcore.h"
#include "profreport/tree.h"

#include "internal.h"

#define DONE 0x8000u

void
pr_names_init(struct pr_names *nc, const struct pr_trace *t)
{
    nc->t = t;
    nc->n = pr_strtab_count(t->strs);
    /* Without the cache every lookup classifies afresh: slower, same
     * answers, so an allocation failure here is not an error. */
    nc->bits = calloc(nc->n ? nc->n : 1, sizeof(*nc->bits));
    if (nc->bits == NULL)
        nc->n = 0;
}

void
pr_names_free(struct pr_names *nc)
{
    free(nc->bits);
    memset(nc, 0, sizeof(*nc));
}

static int
starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* 5.4's exclusions of an operator row, by name. */
static int
is_non_operator(const char *name)
{
    return strcmp(name, "DataParallel.forward") == 0 ||
           strcmp(name, "DistributedDataParallel.forward") == 0 ||
           starts_with(name, "Optimizer.");
}

/* Case-insensitive substring ("fft2d_r2c", "winogradForwardData4x4"). */
static int
has_ci(const char *s, const char *pat)
{
    size_t n = strlen(pat);

    for (; *s; s++) {
        if (strncasecmp(s, pat, n) == 0)
            return 1;
    }
    return 0;
}

static unsigned
classify(const char *name)
{
    struct pr_tc_kernel tc;
    unsigned bits = DONE;

    pr_tensorcore_classify(name, &tc);
    bits |= tc.tc && tc.source == PR_TC_PLUGIN ? PR_NAME_TC_PLUGIN : 0;
    bits |= tc.tc && tc.source == PR_TC_HEURISTIC ? PR_NAME_TC_HEUR : 0;
    bits |= tc.tc && tc.tf32 ? PR_NAME_TF32 : 0;
    bits |= has_ci(name, "winograd") ? PR_NAME_WINOGRAD : 0;
    bits |= has_ci(name, "fft") || has_ci(name, "gcgemm") ? PR_NAME_FFT : 0;
    bits |= pr_tc_op_eligible(name) ? PR_NAME_TC_OP : 0;
    bits |= pr_tree_is_step(name) ? PR_NAME_STEP : 0;
    bits |= pr_tree_is_dataloader(name) ? PR_NAME_DATALOADER : 0;
    bits |= pr_tree_is_comm(name) ? PR_NAME_COMM : 0;
    bits |=
        pr_comm_host_collective(name) && pr_comm_on_host(pr_comm_backend(name))
            ? PR_NAME_COMM_HOST
            : 0;
    bits |= pr_comm_kernel_name(name) ? PR_NAME_COMM_KERNEL : 0;
    bits |= starts_with(name, "Optimizer.step") ? PR_NAME_OPTIMIZER : 0;
    bits |= is_non_operator(name) ? PR_NAME_NOT_OPERATOR : 0;
    return bits;
}

unsigned
pr_names_get(struct pr_names *nc, uint32_t id)
{
    if (id >= nc->n)
        return classify(pr_trace_str(nc->t, id)) & ~DONE;
    if (!(nc->bits[id] & DONE))
        nc->bits[id] = (uint16_t)classify(pr_trace_str(nc->t, id));
    return nc->bits[id] & ~DONE;
}
