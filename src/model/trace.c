/* trace.c - the trace model's builder: growable record arrays, the final
 * sort, and lookups.  Parsing lives in ingest/, analyses in analysis/. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/evsort.h"
#include "profreport/memtl.h"
#include "profreport/op_stats.h"
#include "profreport/phases.h"
#include "profreport/pmu.h"
#include "profreport/shapes.h"
#include "profreport/trace.h"

/* The records a run holds most of; a field added carelessly would grow
 * every run's peak memory by its width times millions. */
_Static_assert(sizeof(struct pr_event) == 40, "struct pr_event grew");
_Static_assert(sizeof(struct pr_op_rec) == 16, "struct pr_op_rec grew");
_Static_assert(sizeof(struct pr_gpu_info) == 144, "struct pr_gpu_info grew");
_Static_assert(sizeof(struct pr_gpu_rec) == 72, "struct pr_gpu_rec grew");

struct pr_trace *
pr_trace_new(void)
{
    struct pr_trace *t = calloc(1, sizeof(*t));

    if (t == NULL)
        return NULL;
    t->strs = pr_strtab_new_text();
    if (t->strs == NULL) {
        free(t);
        return NULL;
    }
    t->rank = -1;
    t->world_size = -1;
    t->backend = PR_STR_NONE;
    t->worker = PR_STR_NONE;
    t->world_note = PR_STR_NONE;
    t->kernels_note = PR_STR_NONE;
    t->format = pr_strtab_intern(t->strs, "kineto", 6);
    if (t->format == PR_STR_NONE) {
        pr_trace_free(t);
        return NULL;
    }
    t->vendor = t->device_kind = t->framework = t->profiler_level =
        t->iterations_note = PR_STR_NONE;
    t->op_draft_at = PR_NO_INFO;
    return t;
}

void
pr_trace_free(struct pr_trace *t)
{
    while (t != NULL) {
        struct pr_trace *next = t->next;

        pr_strtab_free(t->strs);
        free(t->events);
        pr_wheres_free(&t->wheres);
        pr_wide_ids_free(&t->wide);
        free(t->ops);
        pr_wheres_free(&t->op_inputs);
        free(t->op_flops);
        free(t->py);
        free(t->gpu);
        free(t->gpu_recs);
        free(t->gpu_more);
        free(t->mem);
        free(t->flows);
        free(t->devices);
        free(t->links);
        free(t->hccl);
        free(t->qlaunch);
        free(t->skipped);
        free(t->gaps);
        pr_shapes_table_free(t->shapes);
        pr_cpu_use_free(t->cpu_use);
        free(t->minddata);
        pr_op_stats_free(t->op_stats);
        pr_memtl_free(t->memtl);
        pr_pmu_free(t->pmu);
        pr_phases_free(t->phases);
        free(t);
        t = next;
    }
}

void
pr_cpu_use_free(struct pr_cpu_use *u)
{
    size_t i;

    if (u == NULL)
        return;
    for (i = 0; i < u->n_series; i++) {
        free(u->series[i].user);
        free(u->series[i].sys);
        free(u->series[i].io);
        free(u->series[i].idle);
    }
    free(u->series);
    free(u);
}

enum pr_status
pr_trace_add_skip(struct pr_trace *t, const char *path, const char *why)
{
    struct pr_skip *k;

    if (pr_grow((void **)&t->skipped, &t->cap_skipped, t->n_skipped + 1,
                sizeof(*k)) != PR_OK)
        return PR_E_NOMEM;
    k = &t->skipped[t->n_skipped];
    k->path = pr_strtab_intern(t->strs, path, strlen(path));
    k->why = pr_strtab_intern(t->strs, why, strlen(why));
    if (k->path == PR_STR_NONE || k->why == PR_STR_NONE)
        return PR_E_NOMEM;
    t->n_skipped++;
    return PR_OK;
}

enum pr_status
pr_trace_add_gap(struct pr_trace *t, const char *kind, size_t count,
                 const char *text)
{
    struct pr_gap *g;

    if (pr_grow((void **)&t->gaps, &t->cap_gaps, t->n_gaps + 1, sizeof(*g)) !=
        PR_OK)
        return PR_E_NOMEM;
    g = &t->gaps[t->n_gaps];
    g->kind = pr_strtab_intern(t->strs, kind, strlen(kind));
    g->text = pr_strtab_intern(t->strs, text, strlen(text));
    g->count = count;
    if (g->kind == PR_STR_NONE || g->text == PR_STR_NONE)
        return PR_E_NOMEM;
    t->n_gaps++;
    return PR_OK;
}

int
pr_trace_has_gap(const struct pr_trace *t, const char *kind)
{
    size_t i;

    for (i = 0; i < t->n_gaps; i++)
        if (strcmp(pr_trace_str(t, t->gaps[i].kind), kind) == 0)
            return 1;
    return 0;
}

struct pr_event *
pr_trace_add_event(struct pr_trace *t)
{
    struct pr_event *e;

    if (t->n_events >= PR_MAX_EVENTS ||
        pr_grow((void **)&t->events, &t->cap_events, t->n_events + 1,
                sizeof(*e)) != PR_OK)
        return NULL;
    e = &t->events[t->n_events++];
    memset(e, 0, sizeof(*e));
    e->ext_code = e->corr_code = -1;
    e->info = PR_NO_INFO;
    return e;
}

/* ------------------------------------------------------------ event ids */

enum pr_status
pr_wide_ids_set(struct pr_wide_ids *w, int32_t *code, int64_t id)
{
    if (id >= 0 && id <= INT32_MAX) {
        *code = (int32_t)id;
        return PR_OK;
    }
    if (id == PR_NO_ID) {
        *code = -1;
        return PR_OK;
    }
    if (*code <= -2) { /* its slot is the event's own: reuse it */
        w->v[-(int64_t)*code - 2] = id;
        return PR_OK;
    }
    /* -2 - n must stay >= INT32_MIN */
    if (w->n >= (size_t)INT32_MAX - 1 ||
        pr_grow((void **)&w->v, &w->cap, w->n + 1, sizeof(*w->v)) != PR_OK)
        return PR_E_NOMEM;
    w->v[w->n] = id;
    *code = (int32_t)(-2 - (int64_t)w->n);
    w->n++;
    return PR_OK;
}

void
pr_wide_ids_reset(struct pr_wide_ids *w)
{
    w->n = 0;
}

void
pr_wide_ids_free(struct pr_wide_ids *w)
{
    free(w->v);
    memset(w, 0, sizeof(*w));
}

enum pr_status
pr_event_set_external_id(struct pr_trace *t, struct pr_event *e, int64_t id)
{
    return pr_wide_ids_set(&t->wide, &e->ext_code, id);
}

enum pr_status
pr_event_set_correlation(struct pr_trace *t, struct pr_event *e, int64_t id)
{
    return pr_wide_ids_set(&t->wide, &e->corr_code, id);
}

/* ------------------------------------------------------------ wheres */

static size_t
where_hash(uint32_t cat, uint32_t pid, uint32_t tid)
{
    uint64_t h = ((uint64_t)cat * 0x9E3779B97F4A7C15u) ^
                 ((uint64_t)pid * 0xC2B2AE3D27D4EB4Fu) ^
                 ((uint64_t)tid * 0x165667B19E3779F9u);

    return (size_t)(h ^ (h >> 29));
}

/* Double the slot table (at least 64 slots) and file every triple again. */
static enum pr_status
wheres_rehash(struct pr_wheres *w)
{
    size_t n_slots = w->n_slots ? w->n_slots * 2 : 64, i;
    uint32_t *slots = calloc(n_slots, sizeof(*slots));

    if (slots == NULL)
        return PR_E_NOMEM;
    for (i = 1; i < w->n; i++) {
        size_t k = where_hash(w->v[i].cat, w->v[i].pid, w->v[i].tid);

        while (slots[k & (n_slots - 1)] != 0)
            k++;
        slots[k & (n_slots - 1)] = (uint32_t)i + 1;
    }
    free(w->slots);
    w->slots = slots;
    w->n_slots = n_slots;
    return PR_OK;
}

enum pr_status
pr_wheres_intern(struct pr_wheres *w, uint32_t cat, uint32_t pid, uint32_t tid,
                 uint32_t *id)
{
    const struct pr_where zero = {0, 0, 0}, x = {cat, pid, tid};
    size_t k;

    *id = 0;
    if (cat == 0 && pid == 0 && tid == 0)
        return PR_OK;
    if ((w->n + 1) * 2 > w->n_slots && wheres_rehash(w) != PR_OK)
        return PR_E_NOMEM;
    for (k = where_hash(cat, pid, tid);; k++) {
        uint32_t s = w->slots[k & (w->n_slots - 1)];

        if (s == 0)
            break;
        if (w->v[s - 1].cat == cat && w->v[s - 1].pid == pid &&
            w->v[s - 1].tid == tid) {
            *id = s - 1;
            return PR_OK;
        }
    }
    /* index 0 is (0, 0, 0), stored before the first other triple */
    if (w->n >= UINT32_MAX - 2 ||
        pr_grow((void **)&w->v, &w->cap, w->n + 2, sizeof(*w->v)) != PR_OK)
        return PR_E_NOMEM;
    if (w->n == 0)
        w->v[w->n++] = zero;
    w->v[w->n] = x;
    w->slots[k & (w->n_slots - 1)] = (uint32_t)w->n + 1;
    *id = (uint32_t)w->n++;
    return PR_OK;
}

void
pr_wheres_reset(struct pr_wheres *w)
{
    w->n = 0;
    if (w->slots != NULL)
        memset(w->slots, 0, w->n_slots * sizeof(*w->slots));
}

void
pr_wheres_free(struct pr_wheres *w)
{
    free(w->v);
    free(w->slots);
    memset(w, 0, sizeof(*w));
}

enum pr_status
pr_event_set_where(struct pr_trace *t, struct pr_event *e, uint32_t cat,
                   uint32_t pid, uint32_t tid)
{
    return pr_wheres_intern(&t->wheres, cat, pid, tid, &e->where);
}

/* ------------------------------------------------------------ op records */

/* Room for one more triple without allocating in pr_wheres_intern(). */
static enum pr_status
wheres_reserve(struct pr_wheres *w)
{
    if (w->n >= UINT32_MAX - 3)
        return PR_E_NOMEM;
    if ((w->n + 2) * 2 > w->n_slots && wheres_rehash(w) != PR_OK)
        return PR_E_NOMEM;
    return pr_grow((void **)&w->v, &w->cap, w->n + 2, sizeof(*w->v));
}

/* Room to store the draft whatever it holds, so that storing it (in
 * pr_trace_finish() too) cannot fail: a new input triple, two wide
 * codes, a FLOP count. */
static enum pr_status
draft_reserve(struct pr_trace *t)
{
    if (t->wide.n >= (size_t)INT32_MAX - 3 ||
        pr_grow((void **)&t->wide.v, &t->wide.cap, t->wide.n + 2,
                sizeof(*t->wide.v)) != PR_OK ||
        wheres_reserve(&t->op_inputs) != PR_OK)
        return PR_E_NOMEM;
    return pr_grow((void **)&t->op_flops, &t->cap_op_flops, t->n_op_flops + 1,
                   sizeof(*t->op_flops));
}

/* The code of a sequence number or thread: -1 and 0..INT32_MAX as they
 * are, any other value in a wide slot (room reserved). */
static int32_t
op_code(struct pr_wide_ids *w, int64_t v)
{
    if (v >= -1 && v <= INT32_MAX)
        return (int32_t)v;
    w->v[w->n] = v;
    return (int32_t)(-2 - (int64_t)w->n++);
}

/* Where op's FLOP count is, or would go, in t->op_flops. */
static size_t
flops_at(const struct pr_trace *t, uint32_t op)
{
    size_t lo = 0, hi = t->n_op_flops;

    if (hi > 0 && t->op_flops[hi - 1].op < op)
        return hi; /* readers add in op order */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (t->op_flops[mid].op < op)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Note op's FLOP count and strides text; both absent (-1, PR_STR_NONE)
 * removes its entry.  Room reserved. */
static void
flops_put(struct pr_trace *t, uint32_t op, double flops, uint32_t strides)
{
    size_t at = flops_at(t, op);
    int found = at < t->n_op_flops && t->op_flops[at].op == op;
    int absent = flops == -1 && strides == PR_STR_NONE; /* NaN is kept */

    if (absent && found)
        memmove(&t->op_flops[at], &t->op_flops[at + 1],
                (--t->n_op_flops - at) * sizeof(*t->op_flops));
    if (absent)
        return;
    if (!found) {
        memmove(&t->op_flops[at + 1], &t->op_flops[at],
                (t->n_op_flops++ - at) * sizeof(*t->op_flops));
        t->op_flops[at].op = op;
    }
    t->op_flops[at].flops = flops;
    t->op_flops[at].strides = strides;
}

/* Store the draft in its record (room was reserved when it was handed
 * out, so this cannot fail). */
static void
draft_store(struct pr_trace *t)
{
    const struct pr_op_info *d = &t->op_draft;
    struct pr_op_rec *r;

    if (t->op_draft_at == PR_NO_INFO)
        return;
    r = &t->ops[t->op_draft_at];
    if (pr_wheres_intern(&t->op_inputs, d->input_dims, d->input_types,
                         d->concrete_inputs, &r->inputs) != PR_OK)
        r->inputs = 0; /* not reached: room reserved */
    r->stack = d->stack;
    r->seq = op_code(&t->wide, d->seq);
    r->fwd_tid = op_code(&t->wide, d->fwd_tid);
    flops_put(t, t->op_draft_at, d->flops, d->input_strides);
    t->op_draft_at = PR_NO_INFO;
}

struct pr_op_info *
pr_trace_add_op(struct pr_trace *t, uint32_t *index)
{
    struct pr_op_info *o = &t->op_draft;

    draft_store(t);
    if (t->n_ops >= PR_NO_INFO - 1 ||
        pr_grow((void **)&t->ops, &t->cap_ops, t->n_ops + 1, sizeof(*t->ops)) !=
            PR_OK ||
        draft_reserve(t) != PR_OK)
        return NULL;
    *index = (uint32_t)t->n_ops;
    t->op_draft_at = (uint32_t)t->n_ops++;
    o->input_dims = o->input_types = o->concrete_inputs = PR_STR_NONE;
    o->input_strides = PR_STR_NONE;
    o->stack = PR_STR_NONE;
    o->seq = o->fwd_tid = -1;
    o->flops = -1;
    return o;
}

struct pr_op_info *
pr_trace_op_edit(struct pr_trace *t, uint32_t index)
{
    if (index == t->op_draft_at)
        return &t->op_draft;
    if (index >= t->n_ops)
        return NULL;
    draft_store(t);
    if (draft_reserve(t) != PR_OK)
        return NULL;
    pr_trace_op_at(t, index, &t->op_draft);
    t->op_draft_at = index;
    return &t->op_draft;
}

double
pr_trace_op_flops(const struct pr_trace *t, uint32_t index)
{
    size_t at = flops_at(t, index);

    return at < t->n_op_flops && t->op_flops[at].op == index
               ? t->op_flops[at].flops
               : -1;
}

void
pr_trace_op_extra(const struct pr_trace *t, uint32_t index, double *flops,
                  uint32_t *strides)
{
    size_t at = flops_at(t, index);

    if (at < t->n_op_flops && t->op_flops[at].op == index) {
        *flops = t->op_flops[at].flops;
        *strides = t->op_flops[at].strides;
    }
}

int
pr_gpu_occupancy_not_computed(const struct pr_gpu_info *g)
{
    return isnan(g->occupancy_pct) && g->blocks_per_sm > 0 &&
           g->shared_mem > PR_OCC_SMEM_DEFAULT_MAX;
}

void
pr_gpu_info_init(struct pr_gpu_info *g)
{
    memset(g, 0, sizeof(*g));
    g->device = g->stream = -1;
    g->regs_per_thread = g->shared_mem = -1;
    g->blocks_per_sm = NAN;
    g->occupancy_pct = NAN;
    g->bytes = -1;
    g->collective = g->dtype = PR_STR_NONE;
    g->in_nelems = g->out_nelems = -1;
    g->group_size = -1;
    g->unit = PR_UNIT_UNKNOWN;
    g->hf32 = -1;
    g->task_type = g->op_type = PR_STR_NONE;
    g->dev_types = g->dev_shapes = PR_STR_NONE;
    g->task_id = -1;
    g->measured_flops = -1;
    g->matrix_util_pct = NAN;
    g->block_dim = -1;
}

struct pr_gpu_info *
pr_trace_add_gpu(struct pr_trace *t, uint32_t *index)
{
    struct pr_gpu_info *g;

    if (t->gpu_recs != NULL || /* after pr_trace_finish() */
        t->n_gpu >= PR_NO_INFO ||
        pr_grow((void **)&t->gpu, &t->cap_gpu, t->n_gpu + 1, sizeof(*g)) !=
            PR_OK)
        return NULL;
    *index = (uint32_t)t->n_gpu;
    g = &t->gpu[t->n_gpu++];
    pr_gpu_info_init(g);
    return g;
}

struct pr_mem_info *
pr_trace_add_mem(struct pr_trace *t, uint32_t *index)
{
    struct pr_mem_info *m;

    if (t->n_mem >= PR_NO_INFO || pr_grow((void **)&t->mem, &t->cap_mem,
                                          t->n_mem + 1, sizeof(*m)) != PR_OK)
        return NULL;
    *index = (uint32_t)t->n_mem;
    m = &t->mem[t->n_mem++];
    m->device_type = -1;
    m->device_id = -1;
    m->addr = PR_NO_ID;
    m->bytes = 0;
    m->total_allocated = NAN;
    m->total_reserved = NAN;
    return m;
}

enum pr_status
pr_trace_add_flow(struct pr_trace *t, const struct pr_flow *f)
{
    if (pr_grow((void **)&t->flows, &t->cap_flows, t->n_flows + 1,
                sizeof(*f)) != PR_OK)
        return PR_E_NOMEM;
    t->flows[t->n_flows++] = *f;
    return PR_OK;
}

enum pr_status
pr_trace_add_link(struct pr_trace *t, const struct pr_link *l)
{
    if (pr_grow((void **)&t->links, &t->cap_links, t->n_links + 1,
                sizeof(*l)) != PR_OK)
        return PR_E_NOMEM;
    t->links[t->n_links++] = *l;
    return PR_OK;
}

enum pr_status
pr_trace_add_hccl(struct pr_trace *t, const struct pr_hccl_task *h)
{
    if (pr_grow((void **)&t->hccl, &t->cap_hccl, t->n_hccl + 1,
                sizeof(*t->hccl)) != PR_OK)
        return PR_E_NOMEM;
    t->hccl[t->n_hccl++] = *h;
    return PR_OK;
}

enum pr_status
pr_trace_add_qlaunch(struct pr_trace *t, const struct pr_queue_launch *q)
{
    if (pr_grow((void **)&t->qlaunch, &t->cap_qlaunch, t->n_qlaunch + 1,
                sizeof(*t->qlaunch)) != PR_OK)
        return PR_E_NOMEM;
    t->qlaunch[t->n_qlaunch++] = *q;
    return PR_OK;
}

struct pr_device *
pr_trace_add_device(struct pr_trace *t)
{
    struct pr_device *d;

    if (pr_grow((void **)&t->devices, &t->cap_devices, t->n_devices + 1,
                sizeof(*d)) != PR_OK)
        return NULL;
    d = &t->devices[t->n_devices++];
    d->id = -1;
    d->id_unknown = 0;
    d->name = PR_STR_EMPTY;
    d->total_global_mem = -1;
    d->compute_major = d->compute_minor = d->num_sms = -1;
    d->max_threads_per_block = d->max_threads_per_sm = -1;
    d->regs_per_block = d->regs_per_sm = d->warp_size = -1;
    d->smem_per_block = d->smem_per_sm = d->smem_per_block_optin = -1;
    d->arch = PR_STR_NONE;
    d->npu_cores = d->npu_vector_cores = -1;
    d->clock_mhz = d->mem_gbps = -1;
    return d;
}

/* ------------------------------------------------------------ filling */

static uint32_t
intern_or_empty(struct pr_trace *t, const char *s)
{
    return pr_strtab_intern(t->strs, s ? s : "", s ? strlen(s) : 0);
}

/* The event of a span, with its kind and file order; NULL on
 * out-of-memory. */
static struct pr_event *
add_span(struct pr_trace *t, enum pr_kind kind, const struct pr_span *s,
         size_t *index)
{
    uint32_t name = intern_or_empty(t, s->name),
             cat = intern_or_empty(t, s->cat);
    uint32_t pid = intern_or_empty(t, s->pid), tid = intern_or_empty(t, s->tid);
    struct pr_event *e;

    if (name == PR_STR_NONE || cat == PR_STR_NONE || pid == PR_STR_NONE ||
        tid == PR_STR_NONE)
        return NULL;
    e = pr_trace_add_event(t);
    if (e == NULL)
        return NULL;
    e->kind = (unsigned)kind;
    e->name = name;
    e->ts_ns = s->ts_ns;
    e->dur_ns = s->dur_ns > 0 ? s->dur_ns : 0;
    e->order = (unsigned)(t->n_events - 1);
    if (pr_event_set_where(t, e, cat, pid, tid) != PR_OK ||
        pr_event_set_external_id(t, e, s->external_id) != PR_OK ||
        pr_event_set_correlation(t, e, s->correlation) != PR_OK)
        return NULL;
    if (index != NULL)
        *index = t->n_events - 1;
    return e;
}

enum pr_status
pr_trace_add_span(struct pr_trace *t, enum pr_kind kind,
                  const struct pr_span *s, size_t *index)
{
    return add_span(t, kind, s, index) != NULL ? PR_OK : PR_E_NOMEM;
}

/* Intern an optional text; PR_STR_NONE stays for NULL, *oom on failure. */
static uint32_t
text_id(struct pr_trace *t, const char *s, int *oom)
{
    uint32_t id;

    if (s == NULL)
        return PR_STR_NONE;
    id = pr_strtab_intern(t->strs, s, strlen(s));
    *oom |= id == PR_STR_NONE;
    return id;
}

enum pr_status
pr_trace_add_host_op(struct pr_trace *t, enum pr_kind kind,
                     const struct pr_span *s, const struct pr_op_desc *op,
                     size_t *index)
{
    uint32_t info;
    struct pr_op_info *o = pr_trace_add_op(t, &info);
    struct pr_event *e;
    int oom = o == NULL;

    if (oom)
        return PR_E_NOMEM;
    o->input_dims = text_id(t, op->dims, &oom);
    o->input_types = text_id(t, op->types, &oom);
    o->concrete_inputs = text_id(t, op->concrete, &oom);
    o->seq = op->seq;
    o->fwd_tid = op->fwd_tid;
    o->flops = op->flops;
    if (oom || pr_shapes_note(t, PR_SHAPES_DIMS, o->input_dims) != PR_OK ||
        pr_shapes_note(t, PR_SHAPES_TYPES, o->input_types) != PR_OK ||
        pr_shapes_note(t, PR_SHAPES_CONCRETE, o->concrete_inputs) != PR_OK)
        return PR_E_NOMEM;
    e = add_span(t, kind, s, index);
    if (e == NULL)
        return PR_E_NOMEM;
    e->info = info;
    return PR_OK;
}

struct pr_task_desc
pr_trace_task_desc(void)
{
    struct pr_task_desc d;

    memset(&d, 0, sizeof(d));
    d.device = d.stream = -1;
    d.bytes = -1;
    d.nelems = -1;
    d.group_size = -1;
    return d;
}

enum pr_status
pr_trace_add_task(struct pr_trace *t, enum pr_kind kind,
                  const struct pr_span *s, const struct pr_task_desc *d,
                  size_t *index)
{
    uint32_t info;
    struct pr_gpu_info *g = pr_trace_add_gpu(t, &info);
    struct pr_event *e;
    int oom = g == NULL;

    if (oom)
        return PR_E_NOMEM;
    g->device = d->device;
    g->stream = d->stream;
    memcpy(g->grid, d->grid, sizeof(g->grid));
    memcpy(g->block, d->block, sizeof(g->block));
    g->bytes = d->bytes;
    g->copy_dir = (uint8_t)d->dir;
    g->collective = text_id(t, d->collective, &oom);
    g->dtype = text_id(t, d->dtype, &oom);
    g->in_nelems = g->out_nelems = d->nelems;
    g->group_size = d->group_size;
    e = oom ? NULL : add_span(t, kind, s, index);
    if (e == NULL)
        return PR_E_NOMEM;
    e->info = info;
    return PR_OK;
}

enum pr_status
pr_trace_add_memory(struct pr_trace *t, const struct pr_span *s,
                    const struct pr_mem_desc *m, size_t *index)
{
    uint32_t info;
    struct pr_mem_info *r = pr_trace_add_mem(t, &info);
    struct pr_event *e;

    if (r == NULL)
        return PR_E_NOMEM;
    r->device_type = m->device_type;
    r->device_id = m->device_id;
    r->addr = m->addr;
    r->bytes = m->bytes;
    r->total_allocated = m->total_allocated;
    r->total_reserved = m->total_reserved;
    e = add_span(t, PR_KIND_MEMORY_RECORD, s, index);
    if (e == NULL)
        return PR_E_NOMEM;
    e->dur_ns = 0;
    e->info = info;
    return PR_OK;
}

/* Give back the growth slack of an array that will not grow again. */
static void
shrink(void **data, size_t *cap, size_t n, size_t elem)
{
    void *p;

    if (n == 0 || n >= *cap)
        return;
    p = realloc(*data, n * elem);
    if (p == NULL)
        return; /* the old block is still valid: keep it */
    *data = p;
    *cap = n;
}

/* Whether g has any of the fields kept in struct pr_gpu_more. */
static int
has_more(const struct pr_gpu_info *g)
{
    return g->in_nelems != -1 || g->out_nelems != -1 ||
           g->collective != PR_STR_NONE || g->dtype != PR_STR_NONE ||
           g->group_size != -1 || g->task_type != PR_STR_NONE ||
           g->measured_flops != -1 || g->task_id != -1 ||
           !isnan(g->matrix_util_pct) || g->op_type != PR_STR_NONE ||
           g->dev_types != PR_STR_NONE || g->dev_shapes != PR_STR_NONE ||
           g->block_dim != -1;
}

static void
more_of(const struct pr_gpu_info *g, struct pr_gpu_more *m)
{
    m->in_nelems = g->in_nelems;
    m->out_nelems = g->out_nelems;
    m->collective = g->collective;
    m->dtype = g->dtype;
    m->group_size = g->group_size;
    m->task_type = g->task_type;
    m->measured_flops = g->measured_flops;
    m->task_id = g->task_id;
    m->matrix_util_pct = g->matrix_util_pct;
    m->op_type = g->op_type;
    m->dev_types = g->dev_types;
    m->dev_shapes = g->dev_shapes;
    m->block_dim = g->block_dim;
}

static void
rec_of(const struct pr_gpu_info *g, struct pr_gpu_rec *r)
{
    r->device = g->device;
    r->stream = g->stream;
    memcpy(r->grid, g->grid, sizeof(r->grid));
    memcpy(r->block, g->block, sizeof(r->block));
    r->regs_per_thread = g->regs_per_thread;
    r->shared_mem = g->shared_mem;
    r->blocks_per_sm = g->blocks_per_sm;
    r->occupancy_pct = g->occupancy_pct;
    r->bytes = g->bytes;
    r->copy_dir = g->copy_dir;
    r->unit = g->unit;
    r->hf32 = g->hf32;
}

/* Keep the kernel records in 72 bytes (and the few longer ones' rest
 * beside them) instead of 136; the full records are freed.  Short of
 * memory, the full records stay. */
static void
compact_gpu(struct pr_trace *t)
{
    size_t i, n_more = 0;
    struct pr_gpu_rec *r;
    struct pr_gpu_more *m = NULL;

    if (t->gpu == NULL || t->n_gpu == 0)
        return;
    for (i = 0; i < t->n_gpu; i++)
        n_more += has_more(&t->gpu[i]);
    r = malloc(t->n_gpu * sizeof(*r));
    if (n_more > 0)
        m = malloc(n_more * sizeof(*m));
    if (r == NULL || (n_more > 0 && m == NULL)) {
        free(r);
        free(m);
        return;
    }
    n_more = 0;
    for (i = 0; i < t->n_gpu; i++) {
        rec_of(&t->gpu[i], &r[i]);
        r[i].more = PR_NO_INFO;
        if (has_more(&t->gpu[i])) {
            more_of(&t->gpu[i], &m[n_more]);
            r[i].more = (uint32_t)n_more++;
        }
    }
    free(t->gpu);
    t->gpu = NULL;
    t->cap_gpu = t->n_gpu;
    t->gpu_recs = r;
    t->gpu_more = m;
    t->n_gpu_more = n_more;
}

void
pr_trace_finish(struct pr_trace *t)
{
    pr_trace_finish_threads(t, 1);
}

/* task_devices: the distinct device ids of the device task records, read
 * while they are whole (a second finish keeps the first's). */
static void
note_task_devices(struct pr_trace *t)
{
    size_t i;
    int k, n = 0;

    if (t->gpu == NULL)
        return;
    for (i = 0; i < t->n_gpu && n >= 0; i++) {
        int64_t d = t->gpu[i].device;

        if (d < 0)
            continue;
        for (k = 0; k < n && t->task_devices[k] < d; k++)
            ;
        if (k < n && t->task_devices[k] == d)
            continue;
        if (n == PR_MAX_TASK_DEVICES) {
            n = -1;
            break;
        }
        memmove(&t->task_devices[k + 1], &t->task_devices[k],
                (size_t)(n - k) * sizeof(t->task_devices[0]));
        t->task_devices[k] = d;
        n++;
    }
    t->n_task_devices = n;
}

void
pr_trace_finish_threads(struct pr_trace *t, int threads)
{
    size_t i;
    int sorted = 1;

    draft_store(t);
    note_task_devices(t);
    t->diag.invalid_utf8 = pr_strtab_repaired(t->strs);
    t->diag.long_text_cut = pr_strtab_cut(t->strs);
    shrink((void **)&t->events, &t->cap_events, t->n_events,
           sizeof(*t->events));
    shrink((void **)&t->ops, &t->cap_ops, t->n_ops, sizeof(*t->ops));
    shrink((void **)&t->op_flops, &t->cap_op_flops, t->n_op_flops,
           sizeof(*t->op_flops));
    shrink((void **)&t->py, &t->cap_py, t->n_py, sizeof(*t->py));
    compact_gpu(t);
    if (t->gpu != NULL)
        shrink((void **)&t->gpu, &t->cap_gpu, t->n_gpu, sizeof(*t->gpu));
    shrink((void **)&t->mem, &t->cap_mem, t->n_mem, sizeof(*t->mem));
    for (i = 1; i < t->n_events && sorted; i++)
        sorted = pr_event_cmp(&t->events[i - 1], &t->events[i]) <= 0;
    if (!sorted)
        pr_events_sort(t->events, t->n_events, threads);
}

/* The index of the event's op record; PR_NO_INFO when it has none. */
static uint32_t
op_index(const struct pr_trace *t, const struct pr_event *e)
{
    switch (e->kind) {
    case PR_KIND_HOST_OP:
    case PR_KIND_ANNOTATION:
    case PR_KIND_DEVICE_ANNOTATION:
    case PR_KIND_PY_LEGACY:
    case PR_KIND_PY_FUNCTION:
        return e->info < t->n_ops ? e->info : PR_NO_INFO;
    default:
        return PR_NO_INFO;
    }
}

const struct pr_py_ids *
pr_py_find(const struct pr_py_ids *v, size_t n, uint32_t op)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (v[mid].op < op)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo].op == op ? &v[lo] : NULL;
}

const struct pr_py_ids *
pr_trace_py(const struct pr_trace *t, const struct pr_event *e)
{
    uint32_t i = op_index(t, e);

    if (i == PR_NO_INFO || t->n_py == 0)
        return NULL;
    return pr_py_find(t->py, t->n_py, i);
}

enum pr_status
pr_trace_set_py(struct pr_trace *t, uint32_t op, int32_t id, int32_t parent,
                int32_t module)
{
    struct pr_py_ids x = {op, id, parent, module};
    size_t at = t->n_py;

    if (id == -1 && parent == -1 && module == -1)
        return PR_OK;
    while (at > 0 && t->py[at - 1].op > op) /* readers add in op order */
        at--;
    if (at > 0 && t->py[at - 1].op == op) {
        t->py[at - 1] = x;
        return PR_OK;
    }
    if (pr_grow((void **)&t->py, &t->cap_py, t->n_py + 1, sizeof(*t->py)) !=
        PR_OK)
        return PR_E_NOMEM;
    memmove(&t->py[at + 1], &t->py[at], (t->n_py - at) * sizeof(*t->py));
    t->py[at] = x;
    t->n_py++;
    return PR_OK;
}

/* The kernel record of compact record r. */
static void
gpu_expand(const struct pr_trace *t, const struct pr_gpu_rec *r,
           struct pr_gpu_info *g)
{
    pr_gpu_info_init(g);
    g->device = r->device;
    g->stream = r->stream;
    memcpy(g->grid, r->grid, sizeof(g->grid));
    memcpy(g->block, r->block, sizeof(g->block));
    g->regs_per_thread = r->regs_per_thread;
    g->shared_mem = r->shared_mem;
    g->blocks_per_sm = r->blocks_per_sm;
    g->occupancy_pct = r->occupancy_pct;
    g->bytes = r->bytes;
    g->copy_dir = r->copy_dir;
    g->unit = r->unit;
    g->hf32 = r->hf32;
    if (r->more != PR_NO_INFO) {
        const struct pr_gpu_more *m = &t->gpu_more[r->more];

        g->in_nelems = m->in_nelems;
        g->out_nelems = m->out_nelems;
        g->collective = m->collective;
        g->dtype = m->dtype;
        g->group_size = m->group_size;
        g->task_type = m->task_type;
        g->measured_flops = m->measured_flops;
        g->task_id = m->task_id;
        g->matrix_util_pct = m->matrix_util_pct;
        g->op_type = m->op_type;
        g->dev_types = m->dev_types;
        g->dev_shapes = m->dev_shapes;
        g->block_dim = m->block_dim;
    }
}

const struct pr_gpu_info *
pr_trace_gpu(const struct pr_trace *t, const struct pr_event *e,
             struct pr_gpu_info *buf)
{
    switch (e->kind) {
    case PR_KIND_DEVICE_TASK:
    case PR_KIND_COPY:
    case PR_KIND_SET:
        break;
    default:
        return NULL;
    }
    if (e->info >= t->n_gpu)
        return NULL;
    if (t->gpu != NULL)
        *buf = t->gpu[e->info];
    else
        gpu_expand(t, &t->gpu_recs[e->info], buf);
    return buf;
}

const struct pr_mem_info *
pr_trace_mem(const struct pr_trace *t, const struct pr_event *e)
{
    if (e->kind != PR_KIND_MEMORY_RECORD || e->info >= t->n_mem)
        return NULL;
    return &t->mem[e->info];
}

/* Whether every deviceProperties entry describes the same model (name,
 * SM/CU count, memory, capability, architecture): then a device id none
 * of them has is that model too, whichever GPU it is.  One entry is the
 * same model as itself. */
static int
devices_alike(const struct pr_trace *t)
{
    const struct pr_device *a;
    size_t i;

    if (t->n_devices == 0 || t->devices == NULL)
        return 0; /* (and no pointer into an empty array) */
    a = &t->devices[0];
    if (a->name == PR_STR_NONE || pr_trace_str(t, a->name)[0] == '\0' ||
        a->id_unknown)
        return 0;
    for (i = 1; i < t->n_devices; i++) {
        const struct pr_device *b = &t->devices[i];

        if (b->name == PR_STR_NONE ||
            strcmp(pr_trace_str(t, a->name), pr_trace_str(t, b->name)) != 0 ||
            a->num_sms != b->num_sms ||
            a->total_global_mem != b->total_global_mem ||
            a->compute_major != b->compute_major ||
            a->compute_minor != b->compute_minor ||
            (a->arch != b->arch &&
             (a->arch == PR_STR_NONE || b->arch == PR_STR_NONE ||
              strcmp(pr_trace_str(t, a->arch), pr_trace_str(t, b->arch)) != 0)))
            return 0;
    }
    return 1;
}

const struct pr_device *
pr_trace_device_paired(const struct pr_trace *t, int64_t index,
                       enum pr_device_pairing *how)
{
    size_t i;

    if (how != NULL)
        *how = PR_DEVICE_BY_ID;
    /* CUDA lists every GPU by its index; MTIA lists the one it used, with
     * its own id (17) */
    for (i = 0; index >= 0 && i < t->n_devices; i++) {
        if (t->devices[i].id == index)
            return &t->devices[i];
    }
    if (index < 0)
        return NULL;
    if (how != NULL)
        *how = PR_DEVICE_BY_POSITION;
    if ((uint64_t)index < t->n_devices)
        return &t->devices[index];
    /* ids no entry has: the tasks' devices in order, one to one */
    if (t->n_task_devices > 0 && (size_t)t->n_task_devices == t->n_devices)
        for (i = 0; i < t->n_devices; i++)
            if (t->task_devices[i] == index)
                return &t->devices[i];
    /* else, when every entry is the same model, that model (review 28h
     * #3: an MI300X's kernels on device 6 beside entries 0-3, all
     * MI300X, under HIP_VISIBLE_DEVICES) */
    if (how != NULL)
        *how = PR_DEVICE_BY_MODEL;
    if (devices_alike(t))
        return &t->devices[0];
    return NULL;
}

const struct pr_device *
pr_trace_device(const struct pr_trace *t, int64_t index)
{
    return pr_trace_device_paired(t, index, NULL);
}

int
pr_trace_is_npu(const struct pr_trace *t)
{
    return t->device_kind != PR_STR_NONE &&
           strcmp(pr_trace_str(t, t->device_kind), "npu") == 0;
}

/* An autograd node's name: "<Name>Backward<digits>" ("AddmmBackward0"). */
static int
is_node_name(const char *name)
{
    const char *b = strstr(name, "Backward");

    if (b == NULL || b == name)
        return 0;
    b += strlen("Backward");
    if (*b < '0' || *b > '9')
        return 0;
    while (*b >= '0' && *b <= '9')
        b++;
    return *b == '\0';
}

int
pr_trace_has_backward(const struct pr_trace *t)
{
    static const char *const prefix[] = {"autograd::engine::evaluate_function",
                                         "FSDP::pre_backward",
                                         "FSDP::post_backward", NULL};
    size_t i, k;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        const char *name;
        struct pr_op_info op;

        if (e->kind != PR_KIND_HOST_OP && e->kind != PR_KIND_ANNOTATION)
            continue;
        name = pr_trace_str(t, e->name);
        if (name == NULL)
            continue;
        for (k = 0; prefix[k] != NULL &&
                    strncmp(name, prefix[k], strlen(prefix[k])) != 0;
             k++)
            ;
        if (prefix[k] != NULL || is_node_name(name))
            return 1;
        if (e->kind == PR_KIND_HOST_OP && pr_trace_op(t, e, &op) != NULL &&
            op.seq >= 0 && op.fwd_tid > 0)
            return 1;
    }
    return 0;
}
