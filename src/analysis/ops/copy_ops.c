/* copy_ops.c - which operators issue a run's device-to-device copies
 * (issue #31): each DtoD copy's launching call, by correlation, and the
 * operators open on that call's thread when it ran, innermost last, so a
 * finding can name "CompiledFunction > aten::clone > aten::copy_" with
 * its bytes and time instead of a list of operators to look for.  The
 * copies' totals are hostdev.c's (run.copies); this adds their sources
 * to that object.  A sweep over the sorted events keeps a stack of open
 * host ranges per thread: no op tree is needed (it is freed by then). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/keys.h"
#include "profreport/ops.h"
#include "profreport/rows.h"
#include "profreport/tree.h"

#include "../internal.h"

#define CHAIN 3     /* operators named per source, innermost last */
#define DEPTH 64    /* open ranges kept per thread */
#define MAX_THR 256 /* threads followed (more: their calls unnamed) */
#define TOP 3       /* sources written */

/* DtoD copies counted by count, bytes and device time. */
struct tally {
    double n, bytes;
    int64_t ns;
};

struct thr {
    uint32_t pid, tid;
    size_t depth;
    uint32_t open[DEPTH]; /* event indexes, outermost first */
    /* the compiled function (event index, NO_CF none) whose copies are
       being followed, whether it has launched its CUDA graph yet, and its
       copies before that launch */
    uint32_t cf;
    int launched;
    struct tally pending;
};

#define NO_CF UINT32_MAX

struct src {
    uint32_t op[CHAIN]; /* string ids, PR_STR_NONE unused, innermost last */
    double count, bytes;
    int64_t ns;
};

struct sweep {
    const struct pr_trace *t;
    struct pr_names nc;
    struct thr *thr; /* owned, MAX_THR */
    size_t n_thr;
    struct src *v; /* owned */
    size_t n, cap;
    /* the CUDA-graph wrapper of a compiled function (torch/_dynamo/
       backends/cudagraphs.py, torch 2.0 to 2.3's CudaGraphModule.__call__:
       dst.copy_(src) for every input, graph.replay(), then a clone of
       every output): its graph launches, the copies before them, the
       copies after them in the same call */
    double launches;
    struct tally before, after;
    /* the same of the backward's calls (CompiledFunctionBackward): what
       CUDA-graph trees would still copy is read from the split (the
       backward's inputs that are not the forward's outputs, whatif.c) */
    struct tally bwd_before, bwd_after;
};

/* A device-to-device copy: CUPTI's "Memcpy DtoD (Device -> Device)",
 * ROCm's "CopyDeviceToDevice", or the direction a producer recorded. */
static int
is_dtod(const struct pr_trace *t, const struct pr_event *e, int64_t *bytes)
{
    struct pr_gpu_info gb;
    const struct pr_gpu_info *gi = pr_trace_gpu(t, e, &gb);
    const char *n = pr_trace_str(t, e->name);

    *bytes = gi != NULL && gi->bytes > 0 ? gi->bytes : 0;
    if (gi != NULL && gi->copy_dir == PR_DIR_D2D)
        return 1;
    return strstr(n, "DtoD") != NULL || strstr(n, "DeviceToDevice") != NULL;
}

static struct thr *
thread_of(struct sweep *s, const struct pr_event *e)
{
    uint32_t pid = pr_event_pid(s->t, e), tid = pr_event_tid(s->t, e);
    size_t i;

    for (i = 0; i < s->n_thr; i++)
        if (s->thr[i].pid == pid && s->thr[i].tid == tid)
            return &s->thr[i];
    if (s->n_thr == MAX_THR)
        return NULL;
    s->thr[s->n_thr].pid = pid;
    s->thr[s->n_thr].tid = tid;
    s->thr[s->n_thr].depth = 0;
    s->thr[s->n_thr].cf = NO_CF;
    s->thr[s->n_thr].launched = 0;
    memset(&s->thr[s->n_thr].pending, 0, sizeof(struct tally));
    return &s->thr[s->n_thr++];
}

/* A range that names where a copy comes from: an operator or a user
 * annotation, not a step, and not the autograd engine's wrapper
 * ("autograd::engine::evaluate_function: X"), whose child X says it. */
static int
names_source(struct sweep *s, const struct pr_event *e)
{
    const char *n = pr_trace_str(s->t, e->name);

    if (e->kind != PR_KIND_HOST_OP && e->kind != PR_KIND_ANNOTATION)
        return 0;
    return !(pr_names_get(&s->nc, e->name) & PR_NAME_STEP) &&
           strncmp(n, "autograd::engine::evaluate_function: ", 37) != 0;
}

/* Add the copy of call c's thread stack h to its source. */
static int
add_copy(struct sweep *s, const struct thr *h, const struct pr_event *copy,
         int64_t bytes)
{
    struct src key;
    size_t i, k = CHAIN, d = h != NULL ? h->depth : 0;

    for (i = 0; i < CHAIN; i++)
        key.op[i] = PR_STR_NONE;
    while (d-- > 0 && k > 0) {
        const struct pr_event *o = &s->t->events[h->open[d]];

        if (names_source(s, o))
            key.op[--k] = o->name;
    }
    for (i = 0; i < s->n; i++)
        if (memcmp(s->v[i].op, key.op, sizeof(key.op)) == 0)
            break;
    if (i == s->n) {
        if (pr_grow((void **)&s->v, &s->cap, s->n + 1, sizeof(*s->v)) != PR_OK)
            return 0;
        s->v[s->n] = key;
        s->v[s->n].count = s->v[s->n].bytes = 0;
        s->v[s->n++].ns = 0;
    }
    s->v[i].count += 1;
    s->v[i].bytes += (double)bytes;
    s->v[i].ns = pr_sat_add_i64(s->v[i].ns, copy->dur_ns);
    return 1;
}

/* Open host ranges: pop what ended before e, push e. */
static void
track(struct thr *h, const struct pr_trace *t, const struct pr_event *e,
      uint32_t idx)
{
    while (h->depth > 0) {
        const struct pr_event *top = &t->events[h->open[h->depth - 1]];

        if (pr_sat_add_i64(top->ts_ns, top->dur_ns) > e->ts_ns)
            break;
        h->depth--;
    }
    if ((e->kind == PR_KIND_HOST_OP || e->kind == PR_KIND_ANNOTATION) &&
        h->depth < DEPTH)
        h->open[h->depth++] = idx;
}

static void
tally_add(struct tally *a, double n, double bytes, int64_t ns)
{
    a->n += n;
    a->bytes += bytes;
    a->ns = pr_sat_add_i64(a->ns, ns);
}

/* The innermost open torch.compile autograd function (AOT autograd's
 * CompiledFunction, its backward CompiledFunctionBackward) on h, as its
 * event index; NO_CF none.  h now follows it. */
static uint32_t
open_cf(const struct pr_trace *t, struct thr *h)
{
    size_t d = h->depth;

    while (d-- > 0) {
        const char *n = pr_trace_str(t, t->events[h->open[d]].name);

        if (strcmp(n, "CompiledFunction") == 0 ||
            strcmp(n, "CompiledFunctionBackward") == 0) {
            if (h->cf != h->open[d]) {
                h->cf = h->open[d];
                h->launched = 0;
                memset(&h->pending, 0, sizeof(h->pending));
            }
            return h->cf;
        }
    }
    return NO_CF;
}

static int
graph_launch(const struct pr_trace *t, const struct pr_event *call)
{
    const char *n = pr_trace_str(t, call->name);

    return strcmp(n, "cudaGraphLaunch") == 0 || strcmp(n, "cuGraphLaunch") == 0;
}

/* A graph launch (cudaGraphLaunch, the driver's cuGraphLaunch) or a DtoD
 * copy's call on h: the wrapper's tallies.  A copy the graph replays
 * carries its launch's correlation: it is the graph's, not the
 * wrapper's. */
static void
wrapper(struct sweep *s, struct thr *h, const struct pr_event *call,
        const struct pr_event *copy, int64_t bytes)
{
    uint32_t cf = h == NULL ? NO_CF : open_cf(s->t, h);
    int bwd;

    if (cf == NO_CF)
        return;
    bwd = strcmp(pr_trace_str(s->t, s->t->events[cf].name),
                 "CompiledFunctionBackward") == 0;
    if (graph_launch(s->t, call)) {
        if (copy != NULL)
            return; /* the graph's own copy: its launch is counted once */
        s->launches += 1;
        if (!h->launched) {
            tally_add(&s->before, h->pending.n, h->pending.bytes,
                      h->pending.ns);
            if (bwd)
                tally_add(&s->bwd_before, h->pending.n, h->pending.bytes,
                          h->pending.ns);
        }
        h->launched = 1;
        memset(&h->pending, 0, sizeof(h->pending));
    } else if (copy != NULL) {
        tally_add(h->launched ? &s->after : &h->pending, 1, (double)bytes,
                  copy->dur_ns);
        if (bwd && h->launched)
            tally_add(&s->bwd_after, 1, (double)bytes, copy->dur_ns);
    }
}

static int
sweep(struct sweep *s, const struct pr_idmap *copies)
{
    const struct pr_trace *t = s->t;
    size_t i, c;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        struct thr *h;
        int64_t bytes;

        if (e->kind != PR_KIND_HOST_OP && e->kind != PR_KIND_ANNOTATION &&
            e->kind != PR_KIND_RUNTIME_CALL && e->kind != PR_KIND_DRIVER_CALL)
            continue;
        h = thread_of(s, e);
        if (h != NULL)
            track(h, t, e, (uint32_t)i);
        if (e->kind != PR_KIND_RUNTIME_CALL && e->kind != PR_KIND_DRIVER_CALL)
            continue;
        c = pr_idmap_get(copies, pr_event_correlation(t, e));
        if (graph_launch(t, e))
            wrapper(s, h, e, NULL, 0);
        if (c == PR_NONE)
            continue;
        (void)is_dtod(t, &t->events[c], &bytes);
        wrapper(s, h, e, &t->events[c], bytes);
        if (!add_copy(s, h, &t->events[c], bytes))
            return 0;
    }
    return 1;
}

static int
cmp_src(const void *a, const void *b)
{
    const struct src *x = a, *y = b;

    if (x->ns != y->ns)
        return x->ns > y->ns ? -1 : 1;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return memcmp(x->op, y->op, sizeof(x->op));
}

/* "CompiledFunction > aten::clone > aten::copy_", or "(no operator)". */
static void
chain_text(const struct pr_trace *t, const struct src *v, char *buf, size_t cap)
{
    size_t i, len = 0;

    buf[0] = '\0';
    for (i = 0; i < CHAIN; i++) {
        if (v->op[i] == PR_STR_NONE)
            continue;
        len = pr_append(buf, cap, len, "%s%s", len ? " > " : "",
                        pr_trace_str(t, v->op[i]));
    }
    if (len == 0)
        snprintf(buf, cap, "(no operator)");
}

static int
emit(const struct sweep *s, cJSON *copies)
{
    cJSON *arr = cJSON_AddArrayToObject(copies, PR_K_DTOD_BY_OPERATOR);
    char chain[600];
    size_t i;
    int ok = arr != NULL;

    for (i = 0; ok && i < s->n && i < TOP; i++) {
        struct pr_row_dtod_operator row;

        chain_text(s->t, &s->v[i], chain, sizeof(chain));
        row = (struct pr_row_dtod_operator){chain, s->v[i].count, s->v[i].bytes,
                                            s->v[i].ns};
        ok = pr_rows_write(arr, PR_RO_RUNS_COPIES_DTOD_BY_OPERATOR, &row, 1);
    }
    if (ok && s->launches > 0 && s->before.n + s->after.n > 0) {
        struct pr_row_graph_wrapper w = {
            .graph_launches = s->launches,
            .input_copies = s->before.n,
            .input_bytes = s->before.bytes,
            .input_ns = s->before.ns,
            .output_copies = s->after.n,
            .output_bytes = s->after.bytes,
            .output_ns = s->after.ns,
            .backward_input_bytes = s->bwd_before.bytes,
            .backward_output_bytes = s->bwd_after.bytes,
        };
        cJSON *row = pr_rows_row(PR_RO_RUNS_COPIES_GRAPH_WRAPPER, &w);

        ok = row != NULL &&
             cJSON_AddItemToObject(copies, PR_K_GRAPH_WRAPPER, row);
        if (!ok)
            cJSON_Delete(row);
    }
    return ok;
}

enum pr_status
pr_copy_ops_fill(const struct pr_trace *t, cJSON *run, struct pr_error *err)
{
    cJSON *copies = cJSON_GetObjectItemCaseSensitive(run, PR_K_COPIES);
    struct pr_idmap map = {0};
    struct sweep s;
    size_t i;
    int ok = 1;

    if (!cJSON_IsObject(copies))
        return PR_OK; /* no copies object: nothing to say where from */
    for (i = 0; i < t->n_events && ok; i++) {
        const struct pr_event *e = &t->events[i];
        int64_t bytes;

        if (e->kind == PR_KIND_COPY && is_dtod(t, e, &bytes) &&
            pr_event_correlation(t, e) != PR_NO_ID)
            ok =
                pr_idmap_put(&map, pr_event_correlation(t, e), i, err) == PR_OK;
    }
    if (ok && map.n == 0) {
        pr_idmap_free(&map);
        return PR_OK;
    }
    memset(&s, 0, sizeof(s));
    s.t = t;
    s.thr = ok ? malloc(MAX_THR * sizeof(*s.thr)) : NULL;
    ok = ok && s.thr != NULL;
    if (ok) {
        pr_names_init(&s.nc, t);
        ok = sweep(&s, &map);
        pr_names_free(&s.nc);
    }
    if (ok && s.n > 1)
        qsort(s.v, s.n, sizeof(*s.v), cmp_src);
    ok = ok && emit(&s, copies);
    free(s.thr);
    free(s.v);
    pr_idmap_free(&map);
    return ok ? PR_OK
              : pr_error_set(err, PR_E_NOMEM, "out of memory (copy sources)");
}
