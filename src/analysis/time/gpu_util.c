/* gpu_util.c - GPU utilization, estimated SM efficiency and occupancy per
 * device (spec section 9), plus the bucketed utilization timeline for
 * charts.  Reads kernels straight from the trace; steps come in through
 * struct pr_gpu_window. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/comm.h"
#include "profreport/gpu_util.h"
#include "profreport/keys.h"
#include "profreport/phases.h"
#include "profreport/ranges.h"
#include "profreport/rows.h"

#include "../internal.h"

#define MAX_BUCKETS 100 /* 9.6: bucket size is a power of ten µs */

/* A kernel's start or end for the SM-efficiency sweep.  order is the
 * kernel's event index, which fits: the op tree, built before this pass,
 * refuses 2^32 - 1 events. */
struct endpoint {
    int64_t t_ns;
    double v;
    uint32_t order;
    uint8_t is_end;
};

/* 9.2 / A.4: sweep the blocks-per-SM endpoints in time order; while
 * kernels run, the SMs are min(sum, 1) busy.  Starts come in event order,
 * which is their sort order, and the ends still to come wait in a min-heap
 * (as many as kernels overlap), so the sweep runs as the kernels are read
 * instead of over two sorted arrays of every kernel. */
struct sweep {
    struct endpoint *ends; /* owned: binary min-heap by cmp_endpoint */
    size_t n_ends, cap_ends;
    int64_t prev;
    double s, sum;
    size_t active;
    int started, found;
};

/* The 9.6 buckets over the profiled range: n of `size`, the last running
 * to its end (emit_series). */
struct buckets {
    int64_t start, end, size;
    int64_t n; /* 0 when the range is empty */
};

/* A merged list of kernel intervals, summed as its pieces are done
 * instead of held: kernels come in start order, so a piece is done when
 * a kernel starts after its end.  The sums are those pr_ranges_overlap()
 * gives over the whole list (the same pieces in the same order); holding
 * the lists took a range per gap between kernels (issue #17). */
struct busy {
    struct pr_range last; /* the piece still growing */
    int has_last;
    int64_t steps_ns;               /* overlap with the steps */
    int64_t bucket_ns[MAX_BUCKETS]; /* overlap with each bucket */
};

struct gpu_acc {
    struct busy busy;    /* kernel intervals */
    struct busy compute; /* the same without communication kernels */
    struct buckets bk;
    struct sweep sm;
    int64_t kernel_ns;
    double occ_sum, occ_ns; /* 9.3 accumulators */
    size_t occ_known;       /* launches with an occupancy the trace computed */
    int64_t occ_unknown_ns; /* kernels without an occupancy (trace.h) */
    size_t occ_unknown;
    size_t compute_tasks; /* kernels counted in compute */
};

/* Kernels with args.device, as (event, gpu info) pairs: the record
 * copied into *buf, or NULL. */
static const struct pr_gpu_info *
kernel_gpu(const struct pr_trace *t, const struct pr_event *e,
           struct pr_gpu_info *buf)
{
    const struct pr_gpu_info *g;

    if (e->kind != PR_KIND_DEVICE_TASK)
        return NULL;
    g = pr_trace_gpu(t, e, buf);
    return g != NULL && g->device >= 0 ? g : NULL;
}

/* Sorted distinct GPU ids of the kernels (insertion into a short sorted
 * array: traces have a handful of GPUs). */
static enum pr_status
device_ids(const struct pr_trace *t, int32_t **ids, size_t *n,
           struct pr_error *err)
{
    size_t cap = 0, i, j;

    *ids = NULL;
    *n = 0;
    for (i = 0; i < t->n_events; i++) {
        struct pr_gpu_info gb;
        const struct pr_gpu_info *g = kernel_gpu(t, &t->events[i], &gb);

        if (g == NULL)
            continue;
        for (j = 0; j < *n && (*ids)[j] < g->device; j++)
            ;
        if (j < *n && (*ids)[j] == g->device)
            continue;
        if (pr_grow((void **)ids, &cap, *n + 1, sizeof(**ids)) != PR_OK)
            return pr_error_set(err, PR_E_NOMEM, "out of memory (gpu)");
        memmove(*ids + j + 1, *ids + j, (*n - j) * sizeof(**ids));
        (*ids)[j] = g->device;
        (*n)++;
    }
    return PR_OK;
}

static void
acc_free(struct gpu_acc *a)
{
    free(a->sm.ends);
}

/* 9.6: the smallest power-of-ten bucket size (>= 1 us) giving at most
 * 100 buckets over the range.  Compared by division: range > 100 * size
 * overflows for ranges near 2^63, and the loop must end for every range
 * (a saturated one included). */
static int64_t
bucket_size(int64_t range)
{
    int64_t size = 1000;

    while (range / size > MAX_BUCKETS ||
           (range / size == MAX_BUCKETS && range % size != 0)) {
        if (size > INT64_MAX / 10)
            break;
        size *= 10;
    }
    return size;
}

static void
buckets_of(const struct pr_gpu_window *w, struct buckets *bk)
{
    int64_t range = pr_sat_sub_i64(w->global_end_ns, w->global_start_ns);

    bk->start = w->global_start_ns;
    bk->end = w->global_end_ns;
    bk->size = bucket_size(range);
    /* Under 1 µs the plugin fails; one short bucket is the sane answer. */
    bk->n = range <= 0 ? 0 : range / bk->size > 0 ? range / bk->size : 1;
}

/* Bucket i's span. */
static void
bucket_span(const struct buckets *bk, int64_t i, int64_t *lo, int64_t *hi)
{
    /* i * size <= range: no overflow */
    *lo = pr_sat_add_i64(bk->start, i * bk->size);
    *hi = i + 1 == bk->n ? bk->end : pr_sat_add_i64(*lo, bk->size);
}

/* What pr_ranges_overlap() adds for piece p over [lo, hi). */
static int64_t
add_overlap(int64_t sum, const struct pr_range *p, int64_t lo, int64_t hi)
{
    int64_t s = p->start_ns > lo ? p->start_ns : lo;
    int64_t e = p->end_ns < hi ? p->end_ns : hi;

    return e > s ? pr_sat_add_i64(sum, pr_sat_sub_i64(e, s)) : sum;
}

/* A finished piece into the sums. */
static void
busy_piece(struct busy *b, const struct pr_range *p, const struct buckets *bk,
           const struct pr_gpu_window *w)
{
    int64_t i = 0, lo, hi;

    b->steps_ns =
        add_overlap(b->steps_ns, p, w->steps_start_ns, w->steps_end_ns);
    if (bk->n == 0)
        return;
    if (p->start_ns > bk->start)
        i = pr_sat_sub_i64(p->start_ns, bk->start) / bk->size;
    for (i = i < bk->n ? i : bk->n - 1; i < bk->n; i++) {
        bucket_span(bk, i, &lo, &hi);
        if (lo >= p->end_ns)
            break;
        b->bucket_ns[i] = add_overlap(b->bucket_ns[i], p, lo, hi);
    }
}

/* Kernel [start, end) into the list, as pr_ranges_push_merging() joins
 * it; in start order. */
static void
busy_add(struct busy *b, int64_t start, int64_t end, const struct buckets *bk,
         const struct pr_gpu_window *w)
{
    if (b->has_last && start >= b->last.start_ns && start <= b->last.end_ns) {
        if (end > b->last.end_ns)
            b->last.end_ns = end;
        return;
    }
    if (b->has_last)
        busy_piece(b, &b->last, bk, w);
    b->last.start_ns = start;
    b->last.end_ns = end;
    b->has_last = 1;
}

static void
busy_done(struct busy *b, const struct buckets *bk,
          const struct pr_gpu_window *w)
{
    if (b->has_last)
        busy_piece(b, &b->last, bk, w);
    b->has_last = 0;
}

static int
cmp_endpoint(const struct endpoint *x, const struct endpoint *y)
{
    if (x->t_ns != y->t_ns)
        return x->t_ns < y->t_ns ? -1 : 1;
    if (x->is_end != y->is_end)
        return x->is_end - y->is_end;
    return x->order < y->order ? -1 : (x->order > y->order);
}

/* Segments count only while some kernel is active, which drops the
 * plugin's floating residue after the last end. */
static void
visit(struct sweep *sw, const struct endpoint *p, const struct pr_gpu_window *w)
{
    if (!sw->started) {
        sw->prev = p->t_ns;
        sw->started = 1;
    }
    if (p->t_ns > sw->prev && sw->active > 0 && sw->s > 0) {
        int64_t lo =
            sw->prev > w->steps_start_ns ? sw->prev : w->steps_start_ns;
        int64_t hi = p->t_ns < w->steps_end_ns ? p->t_ns : w->steps_end_ns;

        if (hi > lo) {
            sw->sum +=
                (sw->s < 1.0 ? sw->s : 1.0) * (double)pr_sat_sub_i64(hi, lo);
            sw->found = 1;
        }
    }
    sw->prev = p->t_ns;
    sw->s += p->is_end ? -p->v : p->v;
    sw->active += p->is_end ? (size_t)-1 : 1;
}

/* Visit the earliest waiting end and take it off the heap. */
static void
pop_end(struct sweep *sw, const struct pr_gpu_window *w)
{
    struct endpoint *h = sw->ends, last;
    size_t i = 0, n, k;

    visit(sw, &h[0], w);
    n = --sw->n_ends;
    last = h[n];
    while ((k = 2 * i + 1) < n) {
        if (k + 1 < n && cmp_endpoint(&h[k + 1], &h[k]) < 0)
            k++;
        if (cmp_endpoint(&last, &h[k]) <= 0)
            break;
        h[i] = h[k];
        i = k;
    }
    h[i] = last;
}

/* Visit kernel `order`'s start, after every end that sorts before it, and
 * queue its end. */
static enum pr_status
sweep_kernel(struct sweep *sw, int64_t start, int64_t end, size_t order,
             double v, const struct pr_gpu_window *w, struct pr_error *err)
{
    struct endpoint p = {start, v, (uint32_t)order, 0};
    size_t i;

    while (sw->n_ends > 0 && cmp_endpoint(&sw->ends[0], &p) < 0)
        pop_end(sw, w);
    visit(sw, &p, w);
    if (pr_grow((void **)&sw->ends, &sw->cap_ends, sw->n_ends + 1,
                sizeof(*sw->ends)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (gpu)");
    p.t_ns = end;
    p.is_end = 1;
    for (i = sw->n_ends++; i > 0; i = (i - 1) / 2) {
        if (cmp_endpoint(&sw->ends[(i - 1) / 2], &p) <= 0)
            break;
        sw->ends[i] = sw->ends[(i - 1) / 2];
    }
    sw->ends[i] = p;
    return PR_OK;
}

/* Finish the sweep: the fraction of the steps the SMs were busy, NaN when
 * no segment falls inside them. */
static double
sm_efficiency(struct sweep *sw, const struct pr_gpu_window *w)
{
    int64_t span = pr_sat_sub_i64(w->steps_end_ns, w->steps_start_ns);

    while (sw->n_ends > 0)
        pop_end(sw, w);
    if (!sw->started || span <= 0)
        return NAN;
    return sw->found ? sw->sum / (double)span : NAN;
}

/* 9.3: occupancy weighted by kernel time inside the steps. */
static void
add_occupancy(struct gpu_acc *a, const struct pr_event *e, double occ,
              const struct pr_gpu_window *w)
{
    int64_t lo = e->ts_ns > w->steps_start_ns ? e->ts_ns : w->steps_start_ns;
    int64_t end = pr_sat_add_i64(e->ts_ns, e->dur_ns);
    int64_t hi = end < w->steps_end_ns ? end : w->steps_end_ns;

    if (isnan(occ) || occ < 0 || hi <= lo)
        return;
    a->occ_sum += occ * (double)pr_sat_sub_i64(hi, lo);
    a->occ_ns += (double)pr_sat_sub_i64(hi, lo);
}

static enum pr_status
accumulate(const struct pr_trace *t, struct pr_names *nc, int32_t dev,
           const struct pr_gpu_window *w, struct gpu_acc *a,
           struct pr_error *err)
{
    size_t i;
    enum pr_status st = PR_OK;

    buckets_of(w, &a->bk);
    for (i = 0; i < t->n_events && st == PR_OK; i++) {
        const struct pr_event *e = &t->events[i];
        struct pr_gpu_info gb;
        const struct pr_gpu_info *g = kernel_gpu(t, e, &gb);
        int64_t end = pr_sat_add_i64(e->ts_ns, e->dur_ns);

        if (g == NULL || g->device != dev)
            continue;
        a->kernel_ns = pr_sat_add_i64(a->kernel_ns, e->dur_ns);
        /* a launch whose occupancy the profiler did not compute (its 0
           over 48 KiB of shared memory) counts as the 0 it wrote, as the
           PyTorch plugin's figure does: those kernels run few blocks a
           SM, so leaving them out raised the card past what the trace
           allows (review 27 #1: hta_nccl 35.3% -> 68.1%, at most 37.9%);
           the card is then a lower bound, and says so */
        add_occupancy(
            a, e, pr_gpu_occupancy_not_computed(g) ? 0.0 : g->occupancy_pct, w);
        a->occ_known += !pr_gpu_occupancy_not_computed(g) &&
                        !isnan(g->occupancy_pct) && g->occupancy_pct >= 0;
        if (pr_gpu_occupancy_not_computed(g)) {
            a->occ_unknown++;
            a->occ_unknown_ns = pr_sat_add_i64(a->occ_unknown_ns, e->dur_ns);
        }
        /* kernels come in start order (events are sorted by start) */
        busy_add(&a->busy, e->ts_ns, end, &a->bk, w);
        /* compute: neither communication nor waiting for input data */
        if (!pr_comm_kernel_cached(nc, e) &&
            !(pr_names_get(nc, e->name) & PR_NAME_INPUT_KERNEL)) {
            busy_add(&a->compute, e->ts_ns, end, &a->bk, w);
            a->compute_tasks++;
        }
        /* 9.2 uses positive blocks per SM; "inf" (unknown SM count) is
         * skipped rather than failing the file as the plugin does. */
        if (!isfinite(g->blocks_per_sm) || g->blocks_per_sm <= 0)
            continue;
        st = sweep_kernel(&a->sm, e->ts_ns, end, i, g->blocks_per_sm, w, err);
    }
    busy_done(&a->busy, &a->bk, w);
    busy_done(&a->compute, &a->bk, w);
    return st;
}

/* The utilization series of 9.6 over the profiled range; the last bucket
 * runs to its end.  The object, owned (NULL and *ok 0 when out of
 * memory). */
static cJSON *
series(const struct gpu_acc *a, const struct pr_gpu_window *w, int *ok)
{
    struct pr_row_util_series r;
    cJSON *ts = cJSON_CreateArray(), *util = cJSON_CreateArray(), *ser = NULL;
    int64_t i, lo, hi;

    if (ts == NULL || util == NULL)
        *ok = 0;
    for (i = 0; i < a->bk.n && *ok; i++) {
        bucket_span(&a->bk, i, &lo, &hi);
        pr_emit_us(ts, NULL, pr_sat_sub_i64(lo, w->origin_ns), ok);
        pr_emit_num(util, NULL,
                    100.0 * (double)a->busy.bucket_ns[i] /
                        (double)pr_sat_sub_i64(hi, lo),
                    ok);
    }
    if (a->bk.n > 0) {
        pr_emit_us(ts, NULL, pr_sat_sub_i64(w->global_end_ns, w->origin_ns),
                   ok);
        pr_emit_num(util, NULL, 0, ok);
    }
    r = (struct pr_row_util_series){
        .t_us = ts, .utilization_pct = util, .bucket_ns = a->bk.size};
    if (*ok)
        ser = pr_rows_row(PR_RO_RUNS_GPU_METRICS_UTILIZATION_SERIES, &r);
    cJSON_Delete(ts);
    cJSON_Delete(util);
    if (ser == NULL)
        *ok = 0;
    return ser;
}

/* Utilization counts communication kernels as busy (9.1), so a GPU that
 * waits in NCCL looks busy: say how much of it is communication alone.
 * `unmeasured`: the device's record holds no compute task while the
 * producer's step table counts computation (MindSpore's cluster export,
 * cluster_4rank_pipeline: HCCL tasks only, computation_time 14.6 ms a
 * step): compute alone is not known, not 0 (review-2 finding 8). */
static void
comm_note(struct pr_row_gpu_metric *r, char *text, size_t cap, double util,
          double comp, int npu, int unmeasured, int capture)
{
    if (unmeasured && util > 0) {
        r->compute_utilization_pct = NAN;
        r->note = text;
        snprintf(text, cap,
                 "utilization counts %s as busy: of %.1f%% busy, all is "
                 "%s; the trace holds no compute %s for this device, "
                 "though the producer's step table counts computation "
                 "time: what compute alone keeps busy is not measured",
                 npu ? "HCCL tasks" : "communication kernels", util,
                 npu ? "HCCL tasks" : "communication kernels",
                 npu ? "tasks" : "kernels");
        return;
    }
    r->compute_utilization_pct = comp;
    r->note = NULL;
    if (!(util - comp >= 5.0))
        return;
    r->note = text;
    if (npu) /* an Ascend run: HCCL's tasks, in its words */
        snprintf(text, cap,
                 "utilization counts HCCL tasks as busy: of %.1f%% busy, "
                 "%.1f points are HCCL tasks alone (waiting for peers and "
                 "transferring); compute tasks keep the NPU busy %.1f%% of "
                 "the %s",
                 util, util - comp, comp, capture ? "capture" : "steps");
    else
        snprintf(text, cap,
                 "utilization counts communication kernels as busy: of "
                 "%.1f%% busy, %.1f points are communication kernels alone "
                 "(NCCL waiting and transferring); compute kernels keep the "
                 "GPU busy %.1f%% of the %s",
                 util, util - comp, comp, capture ? "capture" : "steps");
}

/* A range-profiler trace's kernels carry no timing (summary.c
 * note_replay): its utilization figures are null, with the reason. */
#define NO_TIMING_NOTE                                                         \
    "kernels were measured by CUPTI's range profiler, whose ranges carry "     \
    "counters but no timing: utilization is not measured"

/* The row's absent mask leaving out the unknown-occupancy keys. */
static uint64_t
occ_unknown_absent(void)
{
    const struct pr_rows_objinfo *oi = pr_rows_object(PR_RO_RUNS_GPU_METRICS);
    uint64_t m = 0;
    size_t k;

    for (k = 0; oi != NULL && k < oi->n_fields && k < 64; k++)
        if (oi->fields[k].row ==
                PR_SR_RUNS_GPU_METRICS_PR_K_OCCUPANCY_UNKNOWN_LAUNCHES ||
            oi->fields[k].row ==
                PR_SR_RUNS_GPU_METRICS_PR_K_OCCUPANCY_UNKNOWN_KERNEL_PCT)
            m |= (uint64_t)1 << k;
    return m;
}

/* One element of gpu_metrics[] appended to arr.  device is a JSON field
 * (the spec lets a device be a number or a string): this writer's is the
 * device id as a number. */
static void
emit_gpu(cJSON *arr, int32_t dev, struct gpu_acc *a,
         const struct pr_gpu_window *w, const char *untimed,
         struct pr_gpu_row *row, int npu, int table_compute, int *ok)
{
    int64_t span = pr_sat_sub_i64(w->steps_end_ns, w->steps_start_ns);
    double util = NAN, sm = sm_efficiency(&a->sm, w), occ = NAN, comp = NAN;
    cJSON *id = cJSON_CreateNumber(dev), *ser = NULL;
    struct pr_row_gpu_metric r = {.device = id,
                                  .utilization_pct = NAN,
                                  .est_sm_efficiency_pct = NAN,
                                  .est_achieved_occupancy_pct = NAN,
                                  .kernel_time_us = NAN,
                                  .compute_utilization_pct = NAN,
                                  .absent = occ_unknown_absent()};
    char text[400];

    row->device = dev;
    row->kernel_ns = a->kernel_ns;
    if (untimed != NULL) {
        row->utilization_pct = NAN;
        r.note = untimed;
        if (strcmp(untimed, NO_TIMING_NOTE) != 0) /* an extract's tasks */
            r.kernel_time_us = (double)a->kernel_ns / 1000.0;
    } else {
        if (span > 0) {
            util = 100.0 * (double)a->busy.steps_ns / (double)span;
            comp = 100.0 * (double)a->compute.steps_ns / (double)span;
        }
        /* no launch with a computed occupancy: not known, not 0 */
        if (a->occ_ns > 0 && a->occ_known > 0)
            occ = a->occ_sum / a->occ_ns;
        row->utilization_pct = util;
        r.utilization_pct = util;
        r.est_sm_efficiency_pct = 100.0 * sm;
        r.est_achieved_occupancy_pct = occ;
        /* the mean leaves out what Kineto did not compute; say how much
           (review25g #1); the keys are written only where some */
        r.occupancy_unknown_launches = (double)a->occ_unknown;
        r.occupancy_unknown_kernel_pct =
            a->kernel_ns > 0
                ? 100.0 * (double)a->occ_unknown_ns / (double)a->kernel_ns
                : 0.0;
        if (a->occ_unknown > 0)
            r.absent = 0;
        r.kernel_time_us = (double)a->kernel_ns / 1000.0;
        comm_note(&r, text, sizeof(text), util, comp, npu,
                  a->compute_tasks == 0 && table_compute && a->kernel_ns > 0,
                  w->capture);
        r.utilization_series = ser = series(a, w, ok);
    }
    if (id == NULL || !*ok ||
        !pr_rows_write(arr, PR_RO_RUNS_GPU_METRICS, &r, 1))
        *ok = 0;
    cJSON_Delete(id);
    cJSON_Delete(ser);
}

void
pr_gpu_rows_free(struct pr_gpu_rows *r)
{
    free(r->v);
    r->v = NULL;
    r->n = 0;
}

enum pr_status
pr_gpu_util_build(const struct pr_trace *t, const struct pr_gpu_window *w,
                  cJSON **out, struct pr_gpu_rows *rows, struct pr_error *err)
{
    int32_t *ids = NULL;
    size_t n = 0, i;
    int ok = 1;
    enum pr_status st = device_ids(t, &ids, &n, err);
    struct pr_names nc;
    const char *untimed = NULL;
    char extract[240];

    *out = cJSON_CreateArray();
    rows->v = calloc(n ? n : 1, sizeof(*rows->v));
    rows->n = 0;
    if (*out == NULL || rows->v == NULL)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory (gpu)");
    pr_names_init(&nc, t);
    if (t->replayed_kernels > 0)
        untimed = NO_TIMING_NOTE;
    else if (t->extract_rows > 0) {
        /* an extract's gaps hold the tasks it left out (review22a #2) */
        snprintf(extract, sizeof(extract),
                 "the task list is an extract (its streams ran at least %zu "
                 "tasks by their Task IDs, of which it lists %zu with a "
                 "Stream ID; see Data quality): utilization is not known",
                 t->extract_min, t->extract_rows);
        untimed = extract;
    }
    for (i = 0; i < n && st == PR_OK; i++) {
        struct gpu_acc a = {0};

        st = accumulate(t, &nc, ids[i], w, &a, err);
        if (st == PR_OK)
            emit_gpu(*out, ids[i], &a, w, untimed, &rows->v[rows->n++],
                     pr_trace_is_npu(t), pr_phases_computes(t), &ok);
        acc_free(&a);
        if (st == PR_OK && !ok)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory (gpu)");
    }
    free(ids);
    pr_names_free(&nc);
    if (st != PR_OK) {
        cJSON_Delete(*out);
        *out = NULL;
        pr_gpu_rows_free(rows);
    }
    return st;
}

int32_t
pr_gpu_rows_busiest(const struct pr_gpu_rows *rows)
{
    int32_t best_id = -1;
    int64_t best = -1;
    size_t j;

    for (j = 0; j < rows->n; j++) { /* ascending ids: a tie keeps the first */
        if (rows->v[j].kernel_ns > best) {
            best = rows->v[j].kernel_ns;
            best_id = rows->v[j].device;
        }
    }
    return best_id;
}

int32_t
pr_gpu_util_busiest(const struct pr_trace *t)
{
    int32_t *ids = NULL, best_id = -1;
    int64_t *ns = NULL, best = -1;
    size_t n = 0, i, j;
    struct pr_error err = {PR_OK, ""};

    if (device_ids(t, &ids, &n, &err) != PR_OK || n == 0 ||
        (ns = calloc(n, sizeof(*ns))) == NULL) {
        free(ids);
        return -1;
    }
    for (i = 0; i < t->n_events; i++) {
        struct pr_gpu_info gb;
        const struct pr_gpu_info *g = kernel_gpu(t, &t->events[i], &gb);

        for (j = 0; g != NULL && j < n && ids[j] != g->device; j++)
            ;
        if (g != NULL && j < n)
            ns[j] = pr_sat_add_i64(ns[j], t->events[i].dur_ns);
    }
    for (j = 0; j < n; j++) { /* ascending ids: the first of a tie wins */
        if (ns[j] > best) {
            best = ns[j];
            best_id = ids[j];
        }
    }
    free(ids);
    free(ns);
    return best_id;
}
