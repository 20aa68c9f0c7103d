/* phases.c - the producer's own step phases and communication time
 * splits, kept by the trace (phases.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/phases.h"

static struct pr_phases *
phases_of(struct pr_trace *t)
{
    if (t->phases == NULL)
        t->phases = calloc(1, sizeof(*t->phases));
    return t->phases;
}

struct pr_phases *
pr_phases_of(struct pr_trace *t)
{
    return phases_of(t);
}

int
pr_phases_computes(const struct pr_trace *t)
{
    size_t i;
    int table = 0;

    for (i = 0; t->phases != NULL && i < t->phases->n_steps; i++) {
        if (t->phases->steps[i].computing_ns > 0)
            return 1;
        table |= t->phases->steps[i].computing_ns != PR_PHASE_UNKNOWN;
    }
    /* without a step table that times computation, MindSpore's step
       trace times the forward and backward pass (review 28h #7: a legacy
       export of step_trace_raw and hccl_raw only); a table's own 0 wins */
    for (i = 0; t->phases != NULL && !table && i < t->phases->n_split; i++)
        if (t->phases->split[i].fpbp_ns > 0)
            return 1;
    return 0;
}

struct pr_phase_step *
pr_phases_add_step(struct pr_trace *t)
{
    struct pr_phases *p = phases_of(t);
    struct pr_phase_step *s;

    if (p == NULL || pr_grow((void **)&p->steps, &p->cap_steps, p->n_steps + 1,
                             sizeof(*s)) != PR_OK)
        return NULL;
    s = &p->steps[p->n_steps++];
    s->number = -1;
    s->computing_ns = s->comm_alone_ns = s->overlapped_ns = PR_PHASE_UNKNOWN;
    s->comm_ns = s->free_ns = s->stage_ns = s->bubble_ns = PR_PHASE_UNKNOWN;
    s->comm_excl_recv_ns = s->preparing_ns = PR_PHASE_UNKNOWN;
    return s;
}

struct pr_ms_split *
pr_phases_add_split(struct pr_trace *t)
{
    struct pr_phases *p = phases_of(t);
    struct pr_ms_split *s;

    if (p == NULL || pr_grow((void **)&p->split, &p->cap_split, p->n_split + 1,
                             sizeof(*s)) != PR_OK)
        return NULL;
    s = &p->split[p->n_split++];
    s->number = -1;
    s->start_ns = s->bp_ns = s->end_ns = PR_PHASE_UNKNOWN;
    s->interval_ns = s->fpbp_ns = s->tail_ns = PR_PHASE_UNKNOWN;
    return s;
}

struct pr_comm_stat *
pr_phases_add_comm(struct pr_trace *t)
{
    struct pr_phases *p = phases_of(t);
    struct pr_comm_stat *c;

    if (p == NULL || pr_grow((void **)&p->comm, &p->cap_comm, p->n_comm + 1,
                             sizeof(*c)) != PR_OK)
        return NULL;
    c = &p->comm[p->n_comm++];
    c->name = c->group = PR_STR_NONE;
    c->step = -1;
    c->p2p = 0;
    c->group_size = -1;
    c->start_ns = c->elapse_ns = c->transit_ns = PR_PHASE_UNKNOWN;
    c->wait_ns = c->sync_ns = c->idle_ns = PR_PHASE_UNKNOWN;
    c->sdma_bytes = c->rdma_bytes = -1;
    c->hccs_bytes = c->pcie_bytes = c->sio_bytes = -1;
    c->sdma_ns = c->rdma_ns = PR_PHASE_UNKNOWN;
    c->hccs_ns = c->pcie_ns = c->sio_ns = PR_PHASE_UNKNOWN;
    c->pair_ns = PR_PHASE_UNKNOWN;
    return c;
}

static double
add_known(double sum, double v)
{
    if (v < 0)
        return sum;
    return (sum < 0 ? 0 : sum) + v;
}

double
pr_comm_stat_bytes(const struct pr_comm_stat *c)
{
    double sdma = c->sdma_bytes;

    if (sdma < 0)
        sdma = add_known(add_known(c->hccs_bytes, c->pcie_bytes), c->sio_bytes);
    return add_known(sdma, c->rdma_bytes);
}

int64_t
pr_comm_stat_rated_ns(const struct pr_comm_stat *c, int *why)
{
    double b = pr_comm_stat_bytes(c);

    *why = PR_COMM_RATED;
    if (c->transit_ns == PR_PHASE_UNKNOWN)
        return PR_PHASE_UNKNOWN;
    /* a few bytes: latency, whatever the time (before Transit 0: such a
       call gets no per-link figure either, pr_comm_stat_link) */
    if (b >= 0 && b < PR_COMM_RATE_MIN_BYTES) {
        *why = PR_COMM_SMALL;
        return -1;
    }
    if (c->transit_ns <= 0) {
        *why = PR_COMM_TRANSIT_ZERO;
        return -1;
    }
    if (c->elapse_ns != PR_PHASE_UNKNOWN && c->transit_ns > c->elapse_ns) {
        *why = PR_COMM_OVER_ELAPSE;
        return -1;
    }
    /* hccl_raw: its links' own time, the time its bytes moved in (issue
       #30: ms_cluster4's AllReduce-op4630 spends 52.3 of its 55.2 us of
       communication_cost moving 1.08 MB to its peer, 20.6 GB/s, and 2.9
       us copying 0.54 MB in the card) */
    if (c->pair_ns != PR_PHASE_UNKNOWN && c->pair_ns <= 0) {
        *why = PR_COMM_TRANSIT_ZERO;
        return -1;
    }
    return c->pair_ns != PR_PHASE_UNKNOWN ? c->pair_ns : c->transit_ns;
}

/* One link entry into the single type pr_comm_stat_link names: 0 once a
 * second type carried bytes. */
static int
one_link(const char *name, double bytes, int64_t ns, const char **type,
         double *b, int64_t *t)
{
    if (!(bytes > 0))
        return 1;
    if (*type != NULL)
        return 0;
    *type = name;
    *b = bytes;
    *t = ns;
    return 1;
}

int
pr_comm_stat_link(const struct pr_comm_stat *c, const char **type,
                  double *bytes, int64_t *ns)
{
    const char *part = NULL;
    double pb = 0;
    int64_t pt = 0;

    *type = NULL;
    *bytes = 0;
    *ns = 0;
    /* an operation under PR_COMM_RATE_MIN_BYTES: latency, no figure */
    if (c->transit_ns != 0 ||
        !(pr_comm_stat_bytes(c) >= PR_COMM_RATE_MIN_BYTES))
        return 0;
    /* the parts of SDMA (msprof's combine_sdma_info): named when one
       carried all of it */
    if (!one_link("HCCS", c->hccs_bytes, c->hccs_ns, &part, &pb, &pt) ||
        !one_link("PCIE", c->pcie_bytes, c->pcie_ns, &part, &pb, &pt) ||
        !one_link("SIO", c->sio_bytes, c->sio_ns, &part, &pb, &pt))
        part = "SDMA";
    if (c->sdma_bytes > 0) {
        if (part == NULL || strcmp(part, "SDMA") == 0 || pb != c->sdma_bytes ||
            pt != c->sdma_ns)
            part = "SDMA";
        pb = c->sdma_bytes;
        pt = c->sdma_ns;
    } else if (part != NULL && strcmp(part, "SDMA") == 0)
        return 0; /* two parts, no SDMA entry to sum them */
    if (part != NULL && c->rdma_bytes > 0)
        return 0; /* SDMA and RDMA: no one link type */
    if (part == NULL) {
        part = "RDMA";
        pb = c->rdma_bytes;
        pt = c->rdma_ns;
    }
    if (!(pb > 0) || pt == PR_PHASE_UNKNOWN || pt <= 0)
        return 0;
    *type = part;
    *bytes = pb;
    *ns = pt;
    return 1;
}

void
pr_phases_free(struct pr_phases *p)
{
    if (p == NULL)
        return;
    free(p->split);
    free(p->steps);
    free(p->comm);
    free(p->mem);
    free(p);
}

struct pr_mem_component *
pr_phases_mem(struct pr_trace *t, const char *name, int64_t device)
{
    struct pr_phases *p = phases_of(t);
    struct pr_mem_component *m;
    size_t i;

    if (p == NULL)
        return NULL;
    for (i = 0; i < p->n_mem; i++)
        if (p->mem[i].device == device &&
            strncmp(p->mem[i].name, name, sizeof(p->mem[i].name) - 1) == 0)
            return &p->mem[i];
    if (p->n_mem == 64 || pr_grow((void **)&p->mem, &p->cap_mem, p->n_mem + 1,
                                  sizeof(*m)) != PR_OK)
        return NULL;
    m = &p->mem[p->n_mem++];
    memset(m, 0, sizeof(*m));
    snprintf(m->name, sizeof(m->name), "%s", name);
    m->device = device;
    m->peak_allocated = m->peak_reserved = -1;
    m->peak_ns = -1;
    return m;
}
