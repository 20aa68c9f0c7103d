/* links.c - collective traffic per link, where the producer states it
 * (trace.h pr_link: Ascend's communication_matrix.json).  Per run: the
 * links of each communication group summed over the capture, and their
 * transports (HCCS, PCIE, RDMA, SIO, LOCAL); for the job: the same over
 * every run's table, group by group, read back from the summary so that
 * a saved summary gives the same section.  Ranks are the producer's:
 * ranks within the group. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/checked.h"
#include "profreport/comm.h"
#include "profreport/keys.h"
#include "profreport/rows.h"
#include "profreport/sget.h"

#include "../internal.h"

/* One link while summing: strings borrowed from the trace or the
 * summary. */
struct lk {
    const char *group; /* "" unknown */
    const char *transport;
    int64_t src, dst;
    int64_t bytes, time_ns;
};

static int
cmp_lk(const void *a, const void *b)
{
    const struct lk *x = a, *y = b;
    int c = strcmp(x->group, y->group);

    if (c != 0)
        return c;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    return strcmp(x->transport, y->transport);
}

/* Sort and fold records of the same group, ranks and transport into
 * one; the new count. */
static size_t
fold(struct lk *v, size_t n)
{
    size_t i, k = 0;

    if (n == 0)
        return 0;
    qsort(v, n, sizeof(*v), cmp_lk);
    for (i = 1; i < n; i++) {
        if (cmp_lk(&v[k], &v[i]) == 0) {
            v[k].bytes = pr_sat_add_i64(v[k].bytes, v[i].bytes);
            v[k].time_ns = pr_sat_add_i64(v[k].time_ns, v[i].time_ns);
        } else {
            v[++k] = v[i];
        }
    }
    return k + 1;
}

/* bytes / ns is GB/s (10^9 bytes per second); null without time. */
static double
gbps(int64_t bytes, int64_t time_ns)
{
    return time_ns > 0 ? (double)bytes / (double)time_ns : NAN;
}

/* A run's links (with their group: rows.def's pr_row_comm_link) or a
 * job group's (pr_row_link). */
static void
emit_links(const struct lk *v, size_t n, cJSON *arr, int with_group, int *ok)
{
    size_t i;

    for (i = 0; i < n && *ok; i++) {
        struct pr_row_comm_link g = {v[i].group[0] != '\0' ? v[i].group : NULL,
                                     v[i].src,
                                     v[i].dst,
                                     v[i].transport,
                                     v[i].bytes,
                                     v[i].time_ns,
                                     gbps(v[i].bytes, v[i].time_ns)};
        struct pr_row_link l = {g.src_rank, g.dst_rank, g.transport,
                                g.bytes,    g.time_ns,  g.bandwidth_gbps};

        *ok = with_group
                  ? pr_rows_write(arr, PR_RO_RUNS_COMMUNICATION_LINKS, &g, 1)
                  : pr_rows_write(arr, PR_RO_DISTRIBUTED_LINK_GROUPS_LINKS, &l,
                                  1);
    }
}

/* One row per transport over the folded links: how many, bytes, time
 * and bandwidth; by bytes, largest first, then by name. */
struct ty {
    const char *name;
    int64_t links, bytes, time_ns;
};

static int
cmp_ty(const void *a, const void *b)
{
    const struct ty *x = a, *y = b;

    if (x->bytes != y->bytes)
        return x->bytes > y->bytes ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void
emit_types(const struct lk *v, size_t n, cJSON *parent, enum pr_rows_object ro,
           int *ok)
{
    struct ty *ty = calloc(n ? n : 1, sizeof(*ty));
    cJSON *arr = pr_emit_arr(parent, PR_K_LINK_TYPES, ok);
    size_t i, j, nt = 0;

    if (ty == NULL) {
        *ok = 0;
        return;
    }
    for (i = 0; i < n; i++) {
        for (j = 0; j < nt && strcmp(ty[j].name, v[i].transport) != 0; j++)
            ;
        if (j == nt)
            ty[nt++].name = v[i].transport;
        ty[j].links++;
        ty[j].bytes = pr_sat_add_i64(ty[j].bytes, v[i].bytes);
        ty[j].time_ns = pr_sat_add_i64(ty[j].time_ns, v[i].time_ns);
    }
    if (nt > 0)
        qsort(ty, nt, sizeof(*ty), cmp_ty);
    for (i = 0; i < nt && *ok; i++) {
        /* the run's and the job's link_types are rows of one shape */
        struct pr_row_link_type r = {ty[i].name, ty[i].links, ty[i].bytes,
                                     ty[i].time_ns,
                                     gbps(ty[i].bytes, ty[i].time_ns)};
        struct pr_row_job_link_type jr = {r.transport, r.links, r.bytes,
                                          r.time_ns, r.bandwidth_gbps};

        *ok = ro == PR_RO_DISTRIBUTED_LINK_TYPES
                  ? pr_rows_write(arr, ro, &jr, 1)
                  : pr_rows_write(arr, ro, &r, 1);
    }
    free(ty);
}

void
pr_comm_links_emit(const struct pr_trace *t, cJSON *comm, int *ok)
{
    struct lk *v;
    size_t i, n;

    if (t->n_links == 0 || !*ok)
        return;
    v = malloc(t->n_links * sizeof(*v));
    if (v == NULL) {
        *ok = 0;
        return;
    }
    for (i = 0; i < t->n_links; i++) {
        const struct pr_link *l = &t->links[i];
        v[i] = (struct lk){pr_trace_str(t, l->group),
                           pr_trace_str(t, l->transport),
                           l->src,
                           l->dst,
                           l->bytes,
                           l->time_ns};
    }
    n = fold(v, t->n_links);
    emit_links(v, n, pr_emit_arr(comm, PR_K_LINKS, ok), 1, ok);
    emit_types(v, n, comm, PR_RO_RUNS_COMMUNICATION_LINK_TYPES, ok);
    free(v);
}

/* ---- the job ---------------------------------------------------------- */

/* Every run's communication.links, read through the typed reader (a
 * saved summary's rows as the writer wrote them); *v owned, *n of them,
 * its strings borrowed from runs. */
static enum pr_status
gather(const cJSON *runs, struct lk **v, size_t *n, struct pr_error *err)
{
    const cJSON *run;
    size_t cap = 0;
    int i = 0;

    *n = 0;
    cJSON_ArrayForEach(run, runs) cap +=
        pr_sget_len(pr_sget_path(run, PR_K_COMMUNICATION "." PR_K_LINKS));
    *v = malloc((cap ? cap : 1) * sizeof(**v));
    if (*v == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (links)");
    cJSON_ArrayForEach(run, runs)
    {
        char path[64];
        void *rows = NULL;
        size_t k, m = 0;
        enum pr_status st;

        snprintf(path, sizeof(path), "runs[%d].communication.links", i++);
        st = pr_rows_load(pr_sget_path(run, PR_K_COMMUNICATION "." PR_K_LINKS),
                          path, PR_RO_RUNS_COMMUNICATION_LINKS, &rows, &m, err);
        if (st != PR_OK) {
            free(*v);
            *v = NULL;
            return st;
        }
        for (k = 0; k < m && *n < cap; k++) {
            const struct pr_row_comm_link *l =
                (const struct pr_row_comm_link *)rows + k;

            (*v)[(*n)++] = (struct lk){l->group != NULL ? l->group : "",
                                       l->transport,
                                       l->src_rank,
                                       l->dst_rank,
                                       l->bytes,
                                       l->time_ns};
        }
        free(rows);
    }
    return PR_OK;
}

static int
cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return x < y ? -1 : x > y;
}

/* Distinct ranks among a group's links; 0 short of memory. */
static size_t
group_ranks(const struct lk *v, size_t n)
{
    int64_t *r = malloc(2 * n * sizeof(*r) + 1);
    size_t i, k = 0;

    if (r == NULL)
        return 0;
    for (i = 0; i < n; i++) {
        r[2 * i] = v[i].src;
        r[2 * i + 1] = v[i].dst;
    }
    qsort(r, 2 * n, sizeof(*r), cmp_i64);
    for (i = 0; i < 2 * n; i++)
        k += i == 0 || r[i] != r[i - 1];
    free(r);
    return k;
}

struct grp {
    size_t first, n;
    int64_t bytes;
    const char *name;
};

static int
cmp_grp(const void *a, const void *b)
{
    const struct grp *x = a, *y = b;

    if (x->bytes != y->bytes)
        return x->bytes > y->bytes ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void
emit_groups(const struct lk *v, size_t n, cJSON *d, int *ok)
{
    cJSON *arr = pr_emit_arr(d, PR_K_LINK_GROUPS, ok);
    struct grp *g = calloc(n ? n : 1, sizeof(*g));
    size_t i, ng = 0;

    if (g == NULL) {
        *ok = 0;
        return;
    }
    for (i = 0; i < n; i++) {
        if (i == 0 || strcmp(v[i].group, v[i - 1].group) != 0)
            g[ng++] = (struct grp){i, 0, 0, v[i].group};
        g[ng - 1].n++;
        g[ng - 1].bytes = pr_sat_add_i64(g[ng - 1].bytes, v[i].bytes);
    }
    if (ng > 0)
        qsort(g, ng, sizeof(*g), cmp_grp);
    for (i = 0; i < ng && *ok; i++) {
        /* its links: typed rows of their own, the group's row holds a copy */
        cJSON *links = cJSON_CreateArray();
        struct pr_row_link_group r = {
            g[i].name[0] != '\0' ? g[i].name : NULL,
            (int64_t)group_ranks(v + g[i].first, g[i].n), g[i].bytes, links};

        *ok = links != NULL;
        emit_links(v + g[i].first, g[i].n, links, 0, ok);
        *ok = *ok && pr_rows_write(arr, PR_RO_DISTRIBUTED_LINK_GROUPS, &r, 1);
        cJSON_Delete(links);
    }
    free(g);
}

enum pr_status
pr_comm_links_job(const cJSON *runs, cJSON *distributed, struct pr_error *err)
{
    size_t n;
    struct lk *v;
    enum pr_status st = gather(runs, &v, &n, err);
    int ok = st == PR_OK;

    if (st != PR_OK)
        return st;
    if (n > 0) {
        n = fold(v, n);
        emit_types(v, n, distributed, PR_RO_DISTRIBUTED_LINK_TYPES, &ok);
        emit_groups(v, n, distributed, &ok);
    }
    free(v);
    return ok ? PR_OK : pr_error_set(err, PR_E_NOMEM, "out of memory (links)");
}
