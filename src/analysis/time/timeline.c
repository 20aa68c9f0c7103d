/* timeline.c - the per-stream timeline of the step closest to the median
 * duration: GPU work per (device, stream) plus the runtime calls and the
 * DataLoader of the host threads that launched most of it, clipped to the
 * step and thinned to about PR_TIMELINE_MAX_SPANS spans.  Drawing it is
 * the renderers' job. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/checked.h"
#include "profreport/keys.h"
#include "profreport/rows.h"
#include "profreport/timeline.h"
#include "profreport/tree.h"

#include "../internal.h"

struct span {
    int group;        /* 0 GPU stream, 1 host thread */
    int32_t a, b;     /* device and stream, or host rank and 0 */
    int64_t start_ns; /* from the step start, clipped */
    int64_t dur_ns;   /* clipped */
    uint32_t name, tid, order;
    uint8_t kind;
    uint8_t mtia; /* device work of a Meta MTIA accelerator */
};

/* span.b of an NPU's AI CPU tasks that have no stream (their own lane) */
#define LANE_AICPU (-2)

struct spans {
    struct span *v; /* owned */
    size_t n, cap;
};

static const char *const kind_keys[] = {
    "kernel", "memcpy", "memset", "runtime", "dataloader", "communication"};
static const char *const kind_plural[] = {"kernels",          "memcpys",
                                          "memsets",          "runtime calls",
                                          "DataLoader calls", "collectives"};

/* A span's kind for a host operator the DataLoader ran (no event kind of
 * its own: the step breakdown's dataloader category). */
#define KIND_DATALOADER PR_KIND_COUNT
/* A device task that is a collective (an NCCL kernel, an HCCL task): the
 * step breakdown's communication category. */
#define KIND_COMM (PR_KIND_COUNT + 1)

static int
kind_index(uint8_t kind)
{
    switch (kind) {
    case PR_KIND_DEVICE_TASK:
        return 0;
    case PR_KIND_COPY:
        return 1;
    case PR_KIND_SET:
        return 2;
    case KIND_DATALOADER:
        return 4;
    case KIND_COMM:
        return 5;
    default:
        return 3;
    }
}

static int
is_device(uint8_t kind)
{
    return kind == PR_KIND_DEVICE_TASK || kind == PR_KIND_COPY ||
           kind == PR_KIND_SET;
}

/* Whether the step [start, end) holds any device work (events are in
 * start order; work that began before the step and runs into it counts
 * only when it starts inside, enough to tell a step with tasks). */
static int
has_device_work(const struct pr_trace *t, int64_t start, int64_t end)
{
    size_t lo = 0, hi = t->n_events, i;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (t->events[mid].ts_ns < start)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (i = lo; i < t->n_events && t->events[i].ts_ns < end; i++)
        if (is_device(t->events[i].kind))
            return 1;
    return 0;
}

static int
cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return x < y ? -1 : (x > y);
}

/* The step whose duration is closest to the median (the mean of the two
 * middle ones for an even count); the earliest such step on a tie.  Of
 * the steps with device work, when any has it: a graph-mode run whose
 * export holds tasks for its first steps only (MindSpore) draws one of
 * those, not an empty one. */
static size_t
pick_step(const struct pr_trace *t, const struct pr_steps *s,
          struct pr_error *err, int *ok)
{
    int64_t *dur = malloc(s->n * sizeof(*dur));
    double median, best = 0;
    size_t i, pick = 0;
    int any = 0, with;

    if (dur == NULL) {
        *ok = 0;
        pr_error_set(err, PR_E_NOMEM, "out of memory (timeline)");
        return 0;
    }
    for (i = 0; i < s->n; i++)
        dur[i] = pr_sat_sub_i64(s->v[i].end_ns, s->v[i].start_ns);
    qsort(dur, s->n, sizeof(*dur), cmp_i64);
    median = ((double)dur[(s->n - 1) / 2] + (double)dur[s->n / 2]) / 2.0;
    free(dur);
    for (i = 0; i < s->n; i++) {
        double d =
            (double)pr_sat_sub_i64(s->v[i].end_ns, s->v[i].start_ns) - median;

        with = has_device_work(t, s->v[i].start_ns, s->v[i].end_ns);
        d = d < 0 ? -d : d;
        if (i == 0 || (with && !any) || (with == any && d < best)) {
            best = d;
            pick = i;
            any = with;
        }
    }
    return pick;
}

static struct span *
push(struct spans *sp)
{
    if (sp->n == sp->cap) {
        size_t cap = sp->cap ? sp->cap * 2 : 256;
        struct span *v = cap > SIZE_MAX / sizeof(*v)
                             ? NULL
                             : realloc(sp->v, cap * sizeof(*v));

        if (v == NULL)
            return NULL;
        sp->v = v;
        sp->cap = cap;
    }
    memset(&sp->v[sp->n], 0, sizeof(sp->v[0]));
    return &sp->v[sp->n++];
}

/* Append e clipped to [start, end); 0 on out-of-memory. */
static int
add_clipped(const struct pr_trace *t, struct spans *sp,
            const struct pr_event *e, int64_t start, int64_t end)
{
    int64_t s = e->ts_ns > start ? e->ts_ns : start;
    int64_t f = pr_sat_sub_i64(end, e->ts_ns) < e->dur_ns
                    ? end
                    : pr_sat_add_i64(e->ts_ns, e->dur_ns);
    struct span *x = push(sp);

    if (x == NULL)
        return 0;
    x->start_ns = s - start;
    x->dur_ns = f - s;
    x->name = e->name;
    x->tid = pr_event_tid(t, e);
    x->order = e->order;
    x->kind = e->kind;
    return 1;
}

/* Overlaps [start, end): end is exclusive, and so is the event's end. */
static int
in_window(const struct pr_event *e, int64_t start, int64_t end)
{
    return e->ts_ns < end && e->dur_ns > pr_sat_sub_i64(start, e->ts_ns);
}

/* Device events of the window with their (device, stream); their
 * correlation ids go into corr so the launching calls can be found. */
static enum pr_status
collect_device(const struct pr_trace *t, struct pr_names *nc, int64_t start,
               int64_t end, struct spans *sp, struct pr_idmap *corr,
               struct pr_error *err)
{
    size_t i;

    for (i = 0; i < t->n_events && t->events[i].ts_ns < end; i++) {
        const struct pr_event *e = &t->events[i];
        struct pr_gpu_info gb;
        const struct pr_gpu_info *g;

        if (!is_device(e->kind) || !in_window(e, start, end))
            continue;
        g = pr_trace_gpu(t, e, &gb);
        if (!add_clipped(t, sp, e, start, end))
            return pr_error_set(err, PR_E_NOMEM, "out of memory (timeline)");
        sp->v[sp->n - 1].a = g ? g->device : -1;
        sp->v[sp->n - 1].b = g ? g->stream : -1;
        /* an AI CPU task without a stream (MindSpore's AI CPU table and
           its timeline's pid 9000, "AICPU OP") has its own lane, as the
           producer's timeline draws it: not HCCL's, not a stream's */
        if (g != NULL && g->stream < 0 && g->unit == PR_UNIT_CPU &&
            pr_trace_is_npu(t))
            sp->v[sp->n - 1].b = LANE_AICPU;
        /* a collective as the critical path tells it (its kernel class,
           its collective metadata, HCCL's unit) */
        if (pr_comm_kernel_cached(nc, e) ||
            (g != NULL && g->unit == PR_UNIT_COMM))
            sp->v[sp->n - 1].kind = KIND_COMM;
        sp->v[sp->n - 1].mtia =
            strcmp(pr_trace_str(t, pr_event_cat(t, e)), "mtia_ccp_events") == 0;
        if (pr_event_correlation(t, e) != PR_NO_ID &&
            pr_idmap_put(corr, pr_event_correlation(t, e), 1, err) != PR_OK)
            return PR_E_NOMEM;
    }
    return PR_OK;
}

struct launcher {
    uint32_t tid;
    size_t n;
    const char *name; /* borrowed from the trace */
};

static int
cmp_launcher(const void *a, const void *b)
{
    const struct launcher *x = a, *y = b;

    if (x->n != y->n)
        return x->n > y->n ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Count the window's launches (runtime calls whose correlation id matches
 * a device event of the window) per thread into *out, busiest first. */
static enum pr_status
count_launchers(const struct pr_trace *t, int64_t start, int64_t end,
                const struct pr_idmap *corr, struct launcher **out,
                size_t *n_out, struct pr_error *err)
{
    struct pr_idmap seen = {0};
    struct launcher *l = NULL;
    size_t i, n = 0;

    for (i = 0; i < t->n_events && t->events[i].ts_ns < end; i++) {
        const struct pr_event *e = &t->events[i];
        size_t k;

        if (e->kind != PR_KIND_RUNTIME_CALL || !in_window(e, start, end) ||
            pr_event_correlation(t, e) == PR_NO_ID ||
            pr_idmap_get(corr, pr_event_correlation(t, e)) == PR_NONE)
            continue;
        k = pr_idmap_get(&seen, pr_event_tid(t, e));
        if (k == PR_NONE) {
            struct launcher *nl = realloc(l, (n + 1) * sizeof(*l));

            if (nl == NULL ||
                pr_idmap_put(&seen, pr_event_tid(t, e), n, err) != PR_OK) {
                free(nl != NULL ? nl : l);
                pr_idmap_free(&seen);
                return pr_error_set(err, PR_E_NOMEM, "out of memory");
            }
            l = nl;
            l[n] = (struct launcher){pr_event_tid(t, e), 0,
                                     pr_trace_str(t, pr_event_tid(t, e))};
            k = n++;
        }
        l[k].n++;
    }
    pr_idmap_free(&seen);
    if (n > 0)
        qsort(l, n, sizeof(*l), cmp_launcher);
    *out = l;
    *n_out = n;
    return PR_OK;
}

/* A host operator of the DataLoader (enumerate(DataLoader)#...__next__):
 * the step's input loading, drawn on its thread's lane. */
static int
is_dataloader(const struct pr_trace *t, const struct pr_event *e)
{
    return (e->kind == PR_KIND_HOST_OP || e->kind == PR_KIND_ANNOTATION) &&
           pr_tree_is_dataloader(pr_trace_str(t, e->name));
}

/* Runtime calls and DataLoader operators of the busiest launching
 * threads; their lane order is by tid text so it does not depend on
 * counts. */
static enum pr_status
collect_host(const struct pr_trace *t, int64_t start, int64_t end,
             const struct pr_idmap *corr, struct spans *sp,
             struct pr_error *err)
{
    struct launcher *l = NULL;
    size_t n = 0, i, k;
    enum pr_status st = count_launchers(t, start, end, corr, &l, &n, err);

    if (n > PR_TIMELINE_HOST_LANES)
        n = PR_TIMELINE_HOST_LANES;
    for (i = 0; st == PR_OK && i < t->n_events && t->events[i].ts_ns < end;
         i++) {
        const struct pr_event *e = &t->events[i];

        int dl = is_dataloader(t, e);

        if ((e->kind != PR_KIND_RUNTIME_CALL && !dl) ||
            !in_window(e, start, end))
            continue;
        /* a reader's zero-length stand-in for a launch the export does not
           hold (MindSpore, msprof: drawn_launches) ties a task to its
           operator; it is not host activity to draw (review 28a #3:
           ms_run1's "CPU thread stream 537 ... 29 runtime calls" of a
           graph-sink run) */
        if (t->drawn_launches && e->kind == PR_KIND_RUNTIME_CALL &&
            e->dur_ns == 0)
            continue;
        for (k = 0; k < n && l[k].tid != pr_event_tid(t, e); k++)
            ;
        if (k == n)
            continue;
        if (!add_clipped(t, sp, e, start, end))
            st = pr_error_set(err, PR_E_NOMEM, "out of memory (timeline)");
        else {
            sp->v[sp->n - 1].group = 1;
            if (dl)
                sp->v[sp->n - 1].kind = KIND_DATALOADER;
        }
    }
    for (i = 0; st == PR_OK && n == 2 && i < sp->n; i++) {
        struct span *x = &sp->v[i];
        uint32_t other = l[x->tid == l[0].tid ? 1 : 0].tid;

        /* lane rank by tid text, not by count: 1 when this tid sorts last */
        if (x->group == 1)
            x->a = strcmp(pr_trace_str(t, x->tid), pr_trace_str(t, other)) > 0;
    }
    free(l);
    return st;
}

static int
cmp_span(const void *a, const void *b)
{
    const struct span *x = a, *y = b;

    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    if (x->b != y->b)
        return x->b < y->b ? -1 : 1;
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    return x->order < y->order ? -1 : (x->order > y->order);
}

static int
same_lane(const struct span *x, const struct span *y)
{
    return x->group == y->group && x->a == y->a && x->b == y->b;
}

static void
emit_span(cJSON *lane, int64_t start_ns, int64_t dur_ns, int kind,
          const char *name, int *ok)
{
    cJSON *a = pr_emit_arr(lane, NULL, ok);

    if (!*ok)
        return;
    *ok = cJSON_AddItemToArray(a, cJSON_CreateNumber((double)start_ns / 1e3)) &&
          cJSON_AddItemToArray(a, cJSON_CreateNumber((double)dur_ns / 1e3)) &&
          cJSON_AddItemToArray(a, cJSON_CreateString(kind_keys[kind])) &&
          cJSON_AddItemToArray(a, cJSON_CreateString(name));
}

/* Emit one lane's spans v[0..n) into arr (NULL: only count them): a span
 * of at least thr stays as it is; a run of shorter ones with gaps under
 * thr becomes one "… N kernels" span.  Returns the number of spans. */
static size_t
walk(const struct pr_trace *t, const struct span *v, size_t n, int64_t thr,
     cJSON *arr, int *ok)
{
    size_t i = 0, out = 0;

    while (i < n) {
        size_t k = i;
        int64_t end = pr_sat_add_i64(v[i].start_ns, v[i].dur_ns);
        int kind = kind_index(v[i].kind), mixed = 0;
        char label[64];

        while (v[i].dur_ns < thr && k + 1 < n && v[k + 1].dur_ns < thr &&
               pr_sat_sub_i64(v[k + 1].start_ns, end) < thr) {
            k++;
            mixed |= kind_index(v[k].kind) != kind;
            if (pr_sat_add_i64(v[k].start_ns, v[k].dur_ns) > end)
                end = pr_sat_add_i64(v[k].start_ns, v[k].dur_ns);
        }
        out++;
        if (arr != NULL && k == i) {
            emit_span(arr, v[i].start_ns, v[i].dur_ns, kind,
                      pr_trace_str(t, v[i].name), ok);
        } else if (arr != NULL) {
            snprintf(label, sizeof(label), "\xE2\x80\xA6 %zu %s", k - i + 1,
                     mixed ? "events" : kind_plural[kind]);
            emit_span(arr, v[i].start_ns, pr_sat_sub_i64(end, v[i].start_ns),
                      kind, label, ok);
        }
        i = k + 1;
    }
    return out;
}

/* Spans the whole timeline would have with merge threshold thr. */
static size_t
count_all(const struct pr_trace *t, const struct spans *sp, int64_t thr)
{
    size_t i = 0, total = 0;

    while (i < sp->n) {
        size_t j = i + 1;
        int ok = 1;

        while (j < sp->n && same_lane(&sp->v[i], &sp->v[j]))
            j++;
        total += walk(t, sp->v + i, j - i, thr, NULL, &ok);
        i = j;
    }
    return total;
}

static void
lane_name(const struct pr_trace *t, const struct span *x, size_t len, char *buf,
          size_t n)
{
    int npu = pr_trace_is_npu(t), comm = 0;
    size_t i;

    for (i = 0; i < len; i++)
        comm |= x[i].kind == KIND_COMM;
    if (x->group == 0 && npu && x->b == LANE_AICPU)
        snprintf(buf, n, "NPU%d AI CPU", (int)x->a);
    else if (x->group == 0 && npu && x->b < 0 && comm)
        snprintf(buf, n, "NPU%d HCCL", (int)x->a); /* HCCL's own row */
    else if (x->group == 0 && npu && x->b < 0)
        /* tasks without a stream that are not HCCL's (MindSpore's AI CPU
           GetNext, review 29 #8) */
        snprintf(buf, n, "NPU%d (no stream)", (int)x->a);
    else if (x->group == 0)
        snprintf(buf, n, "%s%d stream %d",
                 x->mtia ? "MTIA"
                 : npu   ? "NPU"
                         : "GPU",
                 (int)x->a, (int)x->b);
    else
        snprintf(buf, n, "CPU thread %s", pr_trace_str(t, x->tid));
}

static void
emit_lanes(const struct pr_trace *t, const struct spans *sp, int64_t thr,
           cJSON *lanes, int *ok)
{
    size_t i = 0;
    char name[96];

    while (i < sp->n && *ok) {
        size_t j = i + 1;
        /* a lane's row (rows.def's pr_row_lane) holds a copy of its spans */
        cJSON *spans = cJSON_CreateArray();
        struct pr_row_lane lane = {name, sp->v[i].group == 0 ? "gpu" : "host",
                                   spans};

        while (j < sp->n && same_lane(&sp->v[i], &sp->v[j]))
            j++;
        lane_name(t, &sp->v[i], j - i, name, sizeof(name));
        *ok = spans != NULL && lanes != NULL;
        if (*ok)
            walk(t, sp->v + i, j - i, thr, spans, ok);
        *ok = *ok && pr_rows_write(lanes, PR_RO_RUNS_TIMELINE_LANES, &lane, 1);
        cJSON_Delete(spans);
        i = j;
    }
}

/* The timeline's typed row (rows.def), its lanes typed rows built as
 * before and held as a JSON field the row copies. */
static cJSON *
timeline_json(const struct pr_trace *t, const struct pr_step *st,
              const struct spans *sp, int64_t thr)
{
    int64_t origin = t->n_events > 0 ? t->events[0].ts_ns : 0;
    cJSON *lanes = cJSON_CreateArray(), *o = NULL;
    struct pr_row_timeline r = {
        .step = pr_steps_name(t, st),
        .start_ns = pr_sat_sub_i64(st->start_ns, origin),
        .duration_ns = pr_sat_sub_i64(st->end_ns, st->start_ns),
        .merge_below_ns = thr,
        .n_events = (int64_t)sp->n,
        .lanes = lanes,
    };
    int ok = lanes != NULL;

    emit_lanes(t, sp, thr, lanes, &ok);
    if (ok)
        o = pr_rows_row(PR_RO_RUNS_TIMELINE, &r);
    cJSON_Delete(lanes);
    return o;
}

/* The pixel-scale threshold, doubled until the spans fit the cap; at
 * twice the step every lane is down to a few spans, so this ends. */
static int64_t
threshold(const struct pr_trace *t, const struct spans *sp, int64_t step_ns)
{
    int64_t thr = step_ns / PR_TIMELINE_PIXELS;

    if (thr < 1)
        thr = 1;
    while (thr < step_ns && thr <= INT64_MAX / 2 &&
           count_all(t, sp, thr) > PR_TIMELINE_MAX_SPANS)
        thr *= 2;
    return thr;
}

enum pr_status
pr_timeline_fill(const struct pr_trace *t, const struct pr_steps *steps,
                 cJSON *run, struct pr_error *err)
{
    struct spans sp = {0};
    struct pr_idmap corr = {0};
    struct pr_names nc;
    const struct pr_step *st;
    enum pr_status rc;
    int ok = 1;

    if (steps == NULL || steps->n == 0)
        return PR_OK;
    st = &steps->v[pick_step(t, steps, err, &ok)];
    if (!ok)
        return PR_E_NOMEM;
    pr_names_init(&nc, t);
    rc = collect_device(t, &nc, st->start_ns, st->end_ns, &sp, &corr, err);
    pr_names_free(&nc);
    if (rc == PR_OK && sp.n > 0)
        rc = collect_host(t, st->start_ns, st->end_ns, &corr, &sp, err);
    if (rc == PR_OK && sp.n > 0) {
        int64_t dur = pr_sat_sub_i64(st->end_ns, st->start_ns);

        qsort(sp.v, sp.n, sizeof(sp.v[0]), cmp_span);
        rc = pr_emit_put(run, PR_K_TIMELINE,
                         timeline_json(t, st, &sp, threshold(t, &sp, dur)),
                         "timeline", err);
    }
    pr_idmap_free(&corr);
    free(sp.v);
    return rc;
}
