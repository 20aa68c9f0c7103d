/* comm.c - communication per run (computation/communication overlap per
 * step, collective table with NCCL bandwidths) and the cross-rank
 * distributed section.  Communication kernels are recognised by name
 * (nccl*) or by collective metadata, not only by the plugin's external-id
 * link, which recent PyTorch no longer makes (docs/differences.md). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/comm.h"
#include "profreport/ranges.h"

#include "internal.h"

static const struct {
    const char *spelling;
    const char *canon;
} collectives[] = {
    {"allreduce", "all_reduce"},       {"all_reduce", "all_reduce"},
    {"allgather", "all_gather"},       {"all_gather", "all_gather"},
    {"_allgather_base", "all_gather"}, {"allgather_into_tensor_coalesced", "all_gather"},
    {"reducescatter", "reduce_scatter"}, {"reduce_scatter", "reduce_scatter"},
    {"_reduce_scatter_base", "reduce_scatter"},
    {"reduce_scatter_tensor_coalesced", "reduce_scatter"},
    {"alltoall", "all_to_all"},        {"all_to_all", "all_to_all"},
    {"all_to_allv", "all_to_all"},     {"alltoall_base", "all_to_all"},
    {"broadcast", "broadcast"},        {"reduce", "reduce"},
    {"sendrecv", "send_recv"},         {"send", "send"},
    {"recv", "recv"},                  {"barrier", "barrier"},
    {"gather", "gather"},              {"scatter", "scatter"},
};

const char *
pr_comm_collective(const char *name)
{
    char word[64];
    const char *p;
    size_t i, n;

    /* kernel names: ncclKernel_AllReduce_RING_LL_Sum_float(...) or
       ncclDevKernel_AllGather_RING_LL(...); host ops: nccl:all_reduce */
    p = strstr(name, "Kernel_");
    if (strncmp(name, "nccl:", 5) == 0 || strncmp(name, "gloo:", 5) == 0) {
        name += 5;
        n = strlen(name);
    } else if (strncasecmp(name, "nccl", 4) == 0 && p != NULL) {
        name = p + 7;
        n = strcspn(name, "_(");
    } else {
        n = strcspn(name, "(");
    }
    if (n >= sizeof(word))
        return NULL;
    memcpy(word, name, n);
    word[n] = '\0';
    for (i = 0; i < sizeof(collectives) / sizeof(collectives[0]); i++)
        if (strcasecmp(word, collectives[i].spelling) == 0)
            return collectives[i].canon;
    return NULL;
}

int
pr_comm_dtype_size(const char *d)
{
    static const struct {
        const char *name;
        int size;
    } sizes[] = {
        {"Float", 4},  {"float", 4},   {"Float32", 4}, {"Half", 2},
        {"Float16", 2}, {"BFloat16", 2}, {"Double", 8}, {"Float64", 8},
        {"Int", 4},    {"Int32", 4},   {"Long", 8},    {"Int64", 8},
        {"Short", 2},  {"Int16", 2},   {"Char", 1},    {"Byte", 1},
        {"Int8", 1},   {"UInt8", 1},   {"Bool", 1},    {"Float8_e4m3fn", 1},
        {"Float8_e5m2", 1}, {"ComplexFloat", 8}, {"ComplexDouble", 16},
    };
    size_t i;

    for (i = 0; d != NULL && i < sizeof(sizes) / sizeof(sizes[0]); i++)
        if (strcmp(d, sizes[i].name) == 0)
            return sizes[i].size;
    return 0;
}

double
pr_comm_bus_factor(const char *c, int n)
{
    if (c == NULL || n <= 1)
        return 1.0;
    if (strcmp(c, "all_reduce") == 0)
        return 2.0 * (n - 1) / n;
    if (strcmp(c, "all_gather") == 0 || strcmp(c, "reduce_scatter") == 0 ||
        strcmp(c, "all_to_all") == 0)
        return (double)(n - 1) / n;
    return 1.0;
}

static int
is_comm_kernel(const struct pr_trace *t, const struct pr_event *e)
{
    const struct pr_gpu_info *g = pr_trace_gpu(t, e);

    if (e->kind != PR_KIND_DEVICE_TASK)
        return 0;
    if (g != NULL && g->collective != PR_STR_NONE &&
        g->collective != PR_STR_EMPTY)
        return 1;
    return strncasecmp(pr_trace_str(t, e->name), "nccl", 4) == 0;
}

/* One row of the collective table. */
struct op {
    const char *name;    /* canonical collective, static */
    int64_t calls;
    int64_t total_ns;
    double bytes;        /* sum over calls with a known size */
    int64_t sized_calls;
    int64_t sized_ns;    /* time of the calls with a known size */
    int group;           /* ranks in the group (max seen) */
};

#define MAX_OPS 32

static struct op *
op_for(struct op *ops, size_t *n, const char *name)
{
    size_t i;

    for (i = 0; i < *n; i++)
        if (strcmp(ops[i].name, name) == 0)
            return &ops[i];
    if (*n == MAX_OPS)
        return NULL;
    memset(&ops[*n], 0, sizeof(ops[0]));
    ops[*n].name = name;
    return &ops[(*n)++];
}

static double
call_bytes(const struct pr_trace *t, const struct pr_gpu_info *g,
           const char *coll)
{
    int size;
    int64_t n;

    if (g == NULL)
        return -1;
    size = pr_comm_dtype_size(g->dtype == PR_STR_NONE
                                  ? NULL
                                  : pr_trace_str(t, g->dtype));
    /* nccl-tests' size: the gathered output for all-gather, the input
       otherwise (reduce-scatter's input is the full buffer) */
    n = strcmp(coll, "all_gather") == 0 ? g->out_nelems : g->in_nelems;
    if (size == 0 || n < 0)
        return -1;
    return (double)n * size;
}

struct split {
    struct pr_ranges comp, comm, both;
};

static void
split_free(struct split *s)
{
    pr_ranges_free(&s->comp);
    pr_ranges_free(&s->comm);
    pr_ranges_free(&s->both);
}

static enum pr_status
scan(const struct pr_trace *t, struct split *sp, struct op *ops, size_t *n_ops,
     struct pr_error *err)
{
    size_t i;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        const struct pr_gpu_info *g;
        const char *coll;
        struct op *o;
        double b;

        if (e->kind != PR_KIND_DEVICE_TASK)
            continue;
        if (!is_comm_kernel(t, e)) {
            if (pr_ranges_push(&sp->comp, e->ts_ns,
                               pr_sat_add_i64(e->ts_ns, e->dur_ns),
                               err) != PR_OK)
                return PR_E_NOMEM;
            continue;
        }
        if (pr_ranges_push(&sp->comm, e->ts_ns,
                           pr_sat_add_i64(e->ts_ns, e->dur_ns), err) != PR_OK)
            return PR_E_NOMEM;
        g = pr_trace_gpu(t, e);
        coll = g && g->collective != PR_STR_NONE && g->collective != PR_STR_EMPTY
                   ? pr_comm_collective(pr_trace_str(t, g->collective))
                   : NULL;
        if (coll == NULL)
            coll = pr_comm_collective(pr_trace_str(t, e->name));
        o = op_for(ops, n_ops, coll ? coll : "other");
        if (o == NULL)
            continue;
        o->calls++;
        o->total_ns = pr_sat_add_i64(o->total_ns, e->dur_ns);
        b = call_bytes(t, g, o->name);
        if (b >= 0) {
            o->bytes += b;
            o->sized_calls++;
            o->sized_ns = pr_sat_add_i64(o->sized_ns, e->dur_ns);
        }
        if (g != NULL && g->group_size > o->group)
            o->group = g->group_size;
    }
    pr_ranges_merge(&sp->comp);
    pr_ranges_merge(&sp->comm);
    return pr_ranges_intersect(&sp->comp, &sp->comm, &sp->both, err);
}

static int
cmp_op(const void *a, const void *b)
{
    const struct op *x = a, *y = b;

    if (x->total_ns != y->total_ns)
        return x->total_ns > y->total_ns ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void
emit_ops(const struct pr_trace *t, struct op *ops, size_t n, cJSON *c,
         int *ok)
{
    cJSON *arr = pr_emit_arr(c, "ops", ok);
    size_t i;

    qsort(ops, n, sizeof(*ops), cmp_op);
    for (i = 0; i < n && *ok; i++) {
        const struct op *o = &ops[i];
        cJSON *r = pr_emit_obj(arr, NULL, ok);
        int group = o->group > 0 ? o->group : (int)t->world_size;
        double algbw = NAN;
        char name[48];

        snprintf(name, sizeof(name), "nccl:%s", o->name);
        pr_emit_str(r, "name", name, ok);
        pr_emit_num(r, "calls", (double)o->calls, ok);
        if (o->sized_calls == o->calls && o->calls > 0)
            pr_emit_num(r, "total_bytes", o->bytes, ok);
        else
            pr_emit_null(r, "total_bytes", ok);
        pr_emit_us(r, "total_us", o->total_ns, ok);
        pr_emit_num(r, "mean_us",
                    o->calls ? (double)o->total_ns / 1000.0 / (double)o->calls
                             : 0,
                    ok);
        if (o->sized_calls > 0 && o->sized_ns > 0)
            algbw = o->bytes / (double)o->sized_ns; /* bytes/ns = GB/s */
        pr_emit_num_or_null(r, "algbw_gbps", algbw, ok);
        pr_emit_num_or_null(r, "busbw_gbps",
                            algbw * pr_comm_bus_factor(o->name, group), ok);
        if (group > 0)
            pr_emit_num(r, "group_size", group, ok);
        else
            pr_emit_null(r, "group_size", ok);
    }
}

static void
emit_steps(const struct pr_steps *steps, const struct split *sp, cJSON *c,
           int *ok)
{
    cJSON *arr = pr_emit_arr(c, "per_step", ok);
    int64_t sum[4] = {0, 0, 0, 0};
    size_t i;

    for (i = 0; i < steps->n && *ok; i++) {
        const struct pr_step *s = &steps->v[i];
        int64_t comp = pr_ranges_overlap(&sp->comp, s->start_ns, s->end_ns);
        int64_t comm = pr_ranges_overlap(&sp->comm, s->start_ns, s->end_ns);
        int64_t both = pr_ranges_overlap(&sp->both, s->start_ns, s->end_ns);
        int64_t other = pr_sat_sub_i64(
            pr_sat_sub_i64(
                pr_sat_add_i64(pr_sat_sub_i64(s->end_ns, s->start_ns), both),
                comp),
            comm);
        cJSON *r = pr_emit_obj(arr, NULL, ok);

        if (other < 0) /* only after saturation: span >= |comp U comm| */
            other = 0;

        pr_emit_num(r, "step", (double)i, ok);
        pr_emit_us(r, "computation_us", comp - both, ok);
        pr_emit_us(r, "overlap_us", both, ok);
        pr_emit_us(r, "communication_us", comm - both, ok);
        pr_emit_us(r, "other_us", other, ok);
        sum[0] = pr_sat_add_i64(sum[0], comp - both);
        sum[1] = pr_sat_add_i64(sum[1], both);
        sum[2] = pr_sat_add_i64(sum[2], comm - both);
        sum[3] = pr_sat_add_i64(sum[3], other);
    }
    if (steps->n > 0) {
        double n = (double)steps->n * 1000.0;
        pr_emit_num(c, "computation_us", (double)sum[0] / n, ok);
        pr_emit_num(c, "overlap_us", (double)sum[1] / n, ok);
        pr_emit_num(c, "communication_us", (double)sum[2] / n, ok);
        pr_emit_num(c, "other_us", (double)sum[3] / n, ok);
    }
}

enum pr_status
pr_comm_fill(const struct pr_trace *t, const struct pr_steps *steps,
             cJSON *run, struct pr_error *err)
{
    struct split sp;
    struct op ops[MAX_OPS];
    size_t n_ops = 0;
    cJSON *c;
    int ok = 1;
    enum pr_status st;

    memset(&sp, 0, sizeof(sp));
    st = scan(t, &sp, ops, &n_ops, err);
    if (st != PR_OK || sp.comm.n == 0) {
        split_free(&sp);
        if (st == PR_OK)
            return cJSON_AddNullToObject(run, "communication")
                       ? PR_OK
                       : pr_error_set(err, PR_E_NOMEM, "out of memory");
        return pr_error_set(err, PR_E_NOMEM, "out of memory (communication)");
    }
    c = cJSON_AddObjectToObject(run, "communication");
    ok = c != NULL;
    emit_steps(steps, &sp, c, &ok);
    emit_ops(t, ops, n_ops, c, &ok);
    split_free(&sp);
    return ok ? PR_OK
              : pr_error_set(err, PR_E_NOMEM, "out of memory (communication)");
}

/* ---- the cross-rank section, assembled from the runs ---- */

struct wk {
    const cJSON *run;
    const char *worker;
    double rank;
    double comp, overlap, comm, other; /* NaN when the run has none */
    int steps;
};

static double
num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* Rank from distributedInfo, else the last number in the worker name. */
static double
rank_of(const cJSON *run, const char *worker, size_t index)
{
    double r = num(run, "rank");
    const char *p, *digits = NULL;

    if (!isnan(r))
        return r;
    for (p = worker; *p; p++)
        if (*p >= '0' && *p <= '9' && (p == worker || p[-1] < '0' ||
                                       p[-1] > '9'))
            digits = p;
    return digits ? strtod(digits, NULL) : (double)index;
}

static int
cmp_wk(const void *a, const void *b)
{
    const struct wk *x = a, *y = b;

    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return strcmp(x->worker, y->worker);
}

/* More than one rank present (spec/summary-json.md): two runs of different
 * workers or ranks.  A world size above 1 is not enough: one rank's trace
 * of a larger job, or several spans of one worker, is still one rank. */
static int
is_distributed(const struct wk *w, size_t n)
{
    size_t i;

    for (i = 1; i < n; i++)
        if (strcmp(w[i].worker, w[0].worker) != 0 || w[i].rank != w[0].rank)
            return 1;
    return 0;
}

static int
cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

static void
emit_stragglers(const struct wk *w, size_t n, cJSON *d, int *ok)
{
    cJSON *arr = pr_emit_arr(d, "stragglers", ok);
    double busy[256], med, comm_sum = 0;
    size_t i, m = 0;

    for (i = 0; i < n && m < 256; i++)
        if (!isnan(w[i].comp)) {
            busy[m++] = w[i].comp + w[i].overlap;
            comm_sum += w[i].comm;
        }
    if (m < 2 || !*ok)
        return;
    qsort(busy, m, sizeof(busy[0]), cmp_dbl);
    med = m % 2 ? busy[m / 2] : (busy[m / 2 - 1] + busy[m / 2]) / 2;
    for (i = 0; i < n && *ok; i++) {
        double b = w[i].comp + w[i].overlap, others;
        char text[400];
        cJSON *r;
        if (isnan(b) || med <= 0 || b < 1.05 * med)
            continue;
        others = (comm_sum - w[i].comm) / (double)(m - 1);
        if (!(others > w[i].comm))
            continue;
        snprintf(text, sizeof(text),
                 "rank %.0f computes %.1f us per step, %.0f%% above the "
                 "median %.1f us, while the other ranks spend %.1f us per "
                 "step in communication against %.1f us here: they wait "
                 "for it",
                 w[i].rank, b, 100.0 * (b - med) / med, med, others,
                 w[i].comm);
        r = pr_emit_obj(arr, NULL, ok);
        pr_emit_str(r, "worker", w[i].worker, ok);
        pr_emit_num(r, "rank", w[i].rank, ok);
        pr_emit_str(r, "reason", text, ok);
    }
}

static void
emit_workers(const struct wk *w, size_t n, cJSON *d, int *ok)
{
    cJSON *arr = pr_emit_arr(d, "workers", ok);
    cJSON *mis;
    size_t i;
    int mismatch = 0;

    for (i = 0; i < n && *ok; i++) {
        cJSON *r = pr_emit_obj(arr, NULL, ok);
        pr_emit_str(r, "worker", w[i].worker, ok);
        pr_emit_num(r, "rank", w[i].rank, ok);
        pr_emit_num_or_null(r, "computation_us", w[i].comp, ok);
        pr_emit_num_or_null(r, "overlap_us", w[i].overlap, ok);
        pr_emit_num_or_null(r, "communication_us", w[i].comm, ok);
        pr_emit_num_or_null(r, "other_us", w[i].other, ok);
        pr_emit_num(r, "steps", w[i].steps, ok);
        mismatch |= w[i].steps != w[0].steps;
    }
    if (!mismatch) {
        pr_emit_null(d, "step_count_mismatch", ok);
        return;
    }
    mis = pr_emit_arr(d, "step_count_mismatch", ok);
    for (i = 0; i < n && *ok; i++) {
        cJSON *r = pr_emit_obj(mis, NULL, ok);
        pr_emit_str(r, "worker", w[i].worker, ok);
        pr_emit_num(r, "steps", w[i].steps, ok);
    }
}

/* Sum each collective over the ranks; bandwidths from the sums. */
static void
emit_comm_ops(const struct wk *w, size_t n, cJSON *d, int *ok)
{
    cJSON *acc = cJSON_CreateObject(), *row, *arr;
    size_t i;

    if (acc == NULL) {
        *ok = 0;
        return;
    }
    for (i = 0; i < n && *ok; i++) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(w[i].run,
                                                          "communication");
        const cJSON *op;
        cJSON_ArrayForEach(op, cJSON_GetObjectItemCaseSensitive(c, "ops"))
        {
            const char *name = cJSON_GetStringValue(
                cJSON_GetObjectItemCaseSensitive(op, "name"));
            double b = num(op, "total_bytes");
            cJSON *a;
            if (name == NULL)
                continue;
            a = cJSON_GetObjectItemCaseSensitive(acc, name);
            if (a == NULL) {
                a = pr_emit_obj(acc, name, ok);
                pr_emit_num(a, "calls", 0, ok);
                pr_emit_num(a, "total_bytes", 0, ok);
                pr_emit_num(a, "total_us", 0, ok);
                pr_emit_num(a, "group_size", num(op, "group_size"), ok);
                if (!*ok)
                    break;
            }
#define ADD(key, v)                                                          \
    cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(a, key),           \
                         num(a, key) + (v))
            ADD("calls", num(op, "calls"));
            ADD("total_bytes", b); /* NaN poisons: unknown stays unknown */
            ADD("total_us", num(op, "total_us"));
#undef ADD
        }
    }
    arr = pr_emit_arr(d, "comm_ops", ok);
    cJSON_ArrayForEach(row, acc)
    {
        cJSON *r = pr_emit_obj(arr, NULL, ok);
        double calls = num(row, "calls"), bytes = num(row, "total_bytes");
        double us = num(row, "total_us"), g = num(row, "group_size");
        double algbw = us > 0 ? bytes / (us * 1000.0) : NAN;
        pr_emit_str(r, "name", row->string, ok);
        pr_emit_num(r, "calls", calls, ok);
        pr_emit_num_or_null(r, "total_bytes", bytes, ok);
        pr_emit_num(r, "total_us", us, ok);
        pr_emit_num(r, "mean_us", calls > 0 ? us / calls : 0, ok);
        pr_emit_num_or_null(r, "algbw_gbps", algbw, ok);
        pr_emit_num_or_null(
            r, "busbw_gbps",
            algbw * pr_comm_bus_factor(
                        pr_comm_collective(row->string),
                        isnan(g) ? (int)n : (int)g),
            ok);
    }
    cJSON_Delete(acc);
}

static void
collect_workers(const cJSON *runs, struct wk *w, size_t n)
{
    const cJSON *run;
    size_t i = 0;

    cJSON_ArrayForEach(run, runs)
    {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(run, "communication");
        const char *worker = cJSON_GetStringValue(
            cJSON_GetObjectItemCaseSensitive(run, "worker"));
        if (i == n)
            break;
        w[i].run = run;
        w[i].worker = worker ? worker : "";
        w[i].rank = rank_of(run, w[i].worker, i);
        w[i].comp = num(c, "computation_us");
        w[i].overlap = num(c, "overlap_us");
        w[i].comm = num(c, "communication_us");
        w[i].other = num(c, "other_us");
        w[i].steps = cJSON_GetArraySize(
            cJSON_GetObjectItemCaseSensitive(run, "steps"));
        i++;
    }
}

enum pr_status
pr_comm_distributed(cJSON *summary, struct pr_error *err)
{
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(summary, "runs");
    size_t n = (size_t)cJSON_GetArraySize(runs), i;
    struct wk *w;
    cJSON *d;
    double world = 0;
    int ok = 1;

    if (n == 0)
        return PR_OK;
    w = calloc(n, sizeof(*w));
    if (w == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    collect_workers(runs, w, n);
    if (!is_distributed(w, n)) {
        free(w);
        return PR_OK;
    }
    qsort(w, n, sizeof(*w), cmp_wk);
    for (i = 0; i < n; i++)
        if (num(w[i].run, "world_size") > world)
            world = num(w[i].run, "world_size");
    d = cJSON_CreateObject();
    ok = d != NULL;
    pr_emit_num(d, "world_size", world > (double)n ? world : (double)n, &ok);
    pr_emit_str(d, "method",
                "per step: computation = kernel time not overlapped by "
                "NCCL kernels, overlap = both at once, communication = "
                "NCCL kernel time alone, other = the rest of the step; "
                "averaged over steps",
                &ok);
    emit_workers(w, n, d, &ok);
    emit_comm_ops(w, n, d, &ok);
    emit_stragglers(w, n, d, &ok);
    free(w);
    if (ok && cJSON_ReplaceItemInObjectCaseSensitive(summary, "distributed", d))
        return PR_OK;
    cJSON_Delete(d);
    return pr_error_set(err, PR_E_NOMEM, "out of memory (distributed)");
}
