/* convert.c - write a captured session as the trace PyTorch's profiler writes
 * (spec/flops-and-formats.md §2): the keys, categories and args the
 * analyses read.  Linking is done beforehand by correlate.c; occupancy
 * arithmetic by occupancy.c. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/checked.h"
#include "profreport/occupancy.h"
#include "profreport/parse.h"
#include "profreport/record.h"

/* Everything the event writers need. */
/* A forward operator's sequence number and thread: a backward op's
 * "Fwd thread id" (fwd_threads). */
struct fwd {
    int64_t seq;
    uint32_t tid;
};

struct conv {
    const struct pr_record_session *s;
    const struct pr_rec_links *l;
    const struct pr_record_meta *m;
    struct pr_jsonw *w;
    int64_t base_ns; /* baseTimeNanoseconds; ts are relative to it */
    int n_events;
    struct fwd *fwd; /* owned: forward ops by sequence number */
    size_t n_fwd;
};

static const char *const MEM_NAMES[] = {
    "Unknown", "Pageable", "Pinned",        "Device",
    "Array",   "Managed",  "Device Static", "Managed Static"};
static const char *const COPY_NAMES[] = {"Unknown", "HtoD", "DtoH", "HtoA",
                                         "AtoH",    "AtoA", "AtoD", "DtoA",
                                         "DtoD",    "HtoH", "PtoP"};
static const char *const SYNC_NAMES[] = {"Unknown Sync", "Event Sync",
                                         "Stream Wait Event", "Stream Sync",
                                         "Context Sync"};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const char *
mem_name(int k)
{
    return k >= 0 && (size_t)k < N_OF(MEM_NAMES) ? MEM_NAMES[k] : "Unknown";
}

static int
has_time(const struct pr_rec *r)
{
    switch (r->kind) {
    case PR_REC_KERNEL:
    case PR_REC_MEMCPY:
    case PR_REC_MEMSET:
    case PR_REC_RUNTIME:
    case PR_REC_DRIVER:
    case PR_REC_SYNC:
        return r->start_ns > 0 && r->end_ns >= r->start_ns;
    case PR_REC_NONE:
        return 0;
    default:
        return r->start_ns > 0;
    }
}

static int64_t
base_time(const struct pr_record_session *s)
{
    int64_t base = 0;
    size_t i;

    for (i = 0; i < s->n; i++)
        if (has_time(&s->recs[i]) && (base == 0 || s->recs[i].start_ns < base))
            base = s->recs[i].start_ns;
    return base;
}

/* `{"ph": .., "cat": .., "name": .., "pid": .., "tid": .., "ts": ..` with
 * the separator before it; the caller adds the rest and the closing brace. */
static void
open_event(struct conv *c, const char *ph, const char *cat, const char *name,
           int64_t pid, int64_t tid, int64_t ts_ns)
{
    struct pr_jsonw *w = c->w;

    pr_jsonw_raw(w, c->n_events++ ? ",\n  {" : "\n  {");
    w->first = 1;
    pr_jsonw_kstr(w, "ph", ph);
    if (cat != NULL)
        pr_jsonw_kstr(w, "cat", cat);
    pr_jsonw_kstr(w, "name", name != NULL ? name : "");
    pr_jsonw_kint(w, "pid", pid);
    pr_jsonw_kint(w, "tid", tid);
    pr_jsonw_kus(w, "ts", ts_ns - c->base_ns);
}

static void
open_args(struct conv *c)
{
    pr_jsonw_key(c->w, "args");
    pr_jsonw_raw(c->w, "{");
    c->w->first = 1;
}

static void
close_args(struct conv *c)
{
    pr_jsonw_raw(c->w, "}}");
}

static void
open_span(struct conv *c, const char *cat, const char *name, int64_t pid,
          int64_t tid, const struct pr_rec *r)
{
    open_event(c, "X", cat, name, pid, tid, r->start_ns);
    pr_jsonw_kus(c->w, "dur", r->end_ns - r->start_ns);
    open_args(c);
}

static const struct pr_record_device *
find_device(const struct pr_record_session *s, uint32_t id)
{
    size_t i;

    for (i = 0; i < s->n_devs; i++)
        if (s->devs[i].id >= 0 && (uint32_t)s->devs[i].id == id)
            return &s->devs[i];
    return NULL;
}

static void
write_ext(struct conv *c, size_t idx)
{
    if (c->l->ext[idx] != 0)
        pr_jsonw_kint(c->w, "External id", c->l->ext[idx]);
}

static void
write_gpu_common(struct conv *c, const struct pr_rec *r)
{
    write_ext(c, (size_t)(r - c->s->recs));
    pr_jsonw_kuint(c->w, "device", r->device);
    pr_jsonw_kuint(c->w, "context", r->context);
    pr_jsonw_kuint(c->w, "stream", r->stream);
    pr_jsonw_kuint(c->w, "correlation", r->correlation);
}

static void
write_dims(struct conv *c, const char *key, const int32_t v[3])
{
    pr_jsonw_key(c->w, key);
    pr_jsonw_fmt(c->w, "[%d, %d, %d]", (int)v[0], (int)v[1], (int)v[2]);
}

static void
occupancy_dev(const struct pr_record_device *d, struct pr_occupancy_dev *o)
{
    o->cc_major = d->cc_major;
    o->cc_minor = d->cc_minor;
    o->max_threads_per_block = d->max_threads_per_block;
    o->max_threads_per_sm = d->max_threads_per_sm;
    o->regs_per_block = d->regs_per_block;
    o->regs_per_sm = d->regs_per_sm;
    o->warp_size = d->warp_size;
    o->num_sms = d->num_sms;
    o->smem_per_block = d->smem_per_block;
    o->smem_per_sm = d->smem_per_sm;
    o->smem_per_block_optin = d->smem_per_block_optin;
    o->reserved_smem_per_block = d->reserved_smem_per_block;
}

static void
write_occupancy_detail(struct conv *c, const struct pr_occupancy *o)
{
    struct pr_jsonw *w = c->w;
    char lim[64];

    pr_occupancy_limit_str(o->limiting, lim, sizeof(lim));
    pr_jsonw_key(w, "occupancy");
    pr_jsonw_raw(w, "{");
    w->first = 1;
    pr_jsonw_kint(w, "activeBlocksPerMultiprocessor", o->active_blocks);
    pr_jsonw_kstr(w, "limitingFactors", lim);
    pr_jsonw_kint(w, "blockLimitRegs", o->limit_regs);
    pr_jsonw_kint(w, "blockLimitSharedMem", o->limit_smem);
    pr_jsonw_kint(w, "blockLimitWarps", o->limit_warps);
    pr_jsonw_kint(w, "blockLimitBlocks", o->limit_blocks);
    pr_jsonw_kint(w, "allocatedRegistersPerBlock", o->regs_per_block_alloc);
    pr_jsonw_kint(w, "allocatedSharedMemPerBlock", o->smem_per_block_alloc);
    pr_jsonw_raw(w, "}");
    w->first = 0;
}

/* blocks per SM, warps per SM and est. achieved occupancy % (tb-plugin
 * §9.4); left out when the device's properties are unknown. */
static void
write_occupancy(struct conv *c, const struct pr_rec *r, int64_t threads)
{
    const struct pr_record_device *d = find_device(c->s, r->device);
    struct pr_occupancy_launch launch = {(int)threads, r->regs_per_thread,
                                         r->static_smem, r->dynamic_smem,
                                         r->smem_optin};
    struct pr_occupancy_dev od;
    struct pr_occupancy occ;
    int64_t blocks;
    double bps;

    if (d == NULL || threads <= 0 || threads > INT32_MAX ||
        !pr_checked_mul_i64(r->grid[0], r->grid[1], &blocks) ||
        !pr_checked_mul_i64(blocks, r->grid[2], &blocks))
        return;
    bps = pr_occupancy_blocks_per_sm(blocks, d->num_sms);
    if (bps < 0)
        return;
    pr_jsonw_kdbl(c->w, "blocks per SM", bps);
    pr_jsonw_kdbl(c->w, "warps per SM", bps * (double)threads / 32.0);
    occupancy_dev(d, &od);
    if (pr_occupancy_compute(&od, &launch, &occ, NULL) != PR_OK)
        return;
    pr_jsonw_kint(c->w, "est. achieved occupancy %",
                  pr_occupancy_achieved_pct(occ.active_blocks, bps,
                                            (int)threads,
                                            d->max_threads_per_sm));
    write_occupancy_detail(c, &occ);
}

static void
write_kernel(struct conv *c, const struct pr_rec *r)
{
    int64_t threads = (int64_t)r->block[0] * r->block[1] * r->block[2];

    open_span(c, "kernel", r->name, r->device, r->stream, r);
    write_gpu_common(c, r);
    pr_jsonw_kint(c->w, "registers per thread", r->regs_per_thread);
    pr_jsonw_kint(c->w, "shared memory",
                  (int64_t)r->static_smem + r->dynamic_smem);
    pr_jsonw_kint(c->w, "static shared memory", r->static_smem);
    pr_jsonw_kint(c->w, "dynamic shared memory", r->dynamic_smem);
    write_dims(c, "grid", r->grid);
    write_dims(c, "block", r->block);
    write_occupancy(c, r, threads);
    close_args(c);
}

static void
write_bandwidth(struct conv *c, const struct pr_rec *r)
{
    int64_t dur = r->end_ns - r->start_ns;

    pr_jsonw_kuint(c->w, "bytes", r->bytes);
    /* bytes per ns is GB/s */
    if (dur > 0)
        pr_jsonw_kdbl(c->w, "memory bandwidth (GB/s)",
                      (double)r->bytes / (double)dur);
}

static void
write_memcpy(struct conv *c, const struct pr_rec *r)
{
    char name[96];
    int k = r->copy_kind >= 0 && (size_t)r->copy_kind < N_OF(COPY_NAMES)
                ? r->copy_kind
                : 0;

    snprintf(name, sizeof(name), "Memcpy %s (%s -> %s)", COPY_NAMES[k],
             mem_name(r->src_kind), mem_name(r->dst_kind));
    open_span(c, "gpu_memcpy", name, r->device, r->stream, r);
    write_gpu_common(c, r);
    if (r->copy_kind == PR_COPY_PTOP) {
        pr_jsonw_kuint(c->w, "fromDevice", r->src_device);
        pr_jsonw_kuint(c->w, "inDevice", r->device);
        pr_jsonw_kuint(c->w, "toDevice", r->dst_device);
    }
    write_bandwidth(c, r);
    close_args(c);
}

static void
write_memset(struct conv *c, const struct pr_rec *r)
{
    char name[64];

    snprintf(name, sizeof(name), "Memset (%s)", mem_name(r->src_kind));
    open_span(c, "gpu_memset", name, r->device, r->stream, r);
    write_gpu_common(c, r);
    write_bandwidth(c, r);
    close_args(c);
}

static void
write_api(struct conv *c, const struct pr_rec *r)
{
    const char *cat =
        r->kind == PR_REC_RUNTIME ? "cuda_runtime" : "cuda_driver";

    open_span(c, cat, r->name, r->pid, r->tid, r);
    write_ext(c, (size_t)(r - c->s->recs));
    pr_jsonw_kuint(c->w, "cbid", r->cbid);
    pr_jsonw_kuint(c->w, "correlation", r->correlation);
    close_args(c);
}

/* Synchronization has no device id: take it from GPU work in the same
 * context (0 when there is none). */
static uint32_t
context_device(const struct pr_record_session *s, uint32_t context)
{
    size_t i;

    for (i = 0; i < s->n; i++) {
        const struct pr_rec *r = &s->recs[i];
        if ((r->kind == PR_REC_KERNEL || r->kind == PR_REC_MEMCPY ||
             r->kind == PR_REC_MEMSET) &&
            r->context == context)
            return r->device;
    }
    return 0;
}

static void
write_sync(struct conv *c, const struct pr_rec *r)
{
    int k = r->sync_kind >= 0 && (size_t)r->sync_kind < N_OF(SYNC_NAMES)
                ? r->sync_kind
                : 0;
    uint32_t dev = context_device(c->s, r->context);
    int64_t stream = r->stream == UINT32_MAX ? -1 : (int64_t)r->stream;

    open_span(c, "cuda_sync", SYNC_NAMES[k], dev, stream < 0 ? 0 : stream, r);
    pr_jsonw_kstr(c->w, "cuda_sync_kind", SYNC_NAMES[k]);
    pr_jsonw_kint(c->w, "stream", stream);
    pr_jsonw_kuint(c->w, "correlation", r->correlation);
    pr_jsonw_kuint(c->w, "device", dev);
    pr_jsonw_kuint(c->w, "context", r->context);
    if (k == PR_SYNC_EVENT || k == PR_SYNC_STREAM_WAIT_EVENT)
        pr_jsonw_kuint(c->w, "wait_on_cuda_event_id", r->id);
    close_args(c);
}

static void
write_marker(struct conv *c, const struct pr_rec *r)
{
    open_event(c, "i", "cpu_instant_event", r->name, r->pid, r->tid,
               r->start_ns);
    pr_jsonw_kstr(c->w, "s", "t");
    pr_jsonw_raw(c->w, "}");
}

static int
cmp_fwd(const void *pa, const void *pb)
{
    const struct fwd *a = pa, *b = pb;

    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* An emit_nvtx range of an autograd node ("MmBackward0, seq = 12"): a
 * backward op. */
static int
is_node(const struct pr_rec_range *g)
{
    return g->is_op && g->op.seq >= 0 &&
           pr_parse_autograd_node(g->text, g->op.name_len);
}

/* The forward ops' sequence numbers and threads, sorted, into c->fwd; 0
 * when out of memory. */
static int
fwd_threads(struct conv *c)
{
    size_t i;

    c->fwd = malloc((c->l->n_ranges + 1) * sizeof(*c->fwd));
    if (c->fwd == NULL)
        return 0;
    for (i = 0; i < c->l->n_ranges; i++) {
        const struct pr_rec_range *g = &c->l->ranges[i];

        if (g->is_op && g->op.seq >= 0 && !is_node(g))
            c->fwd[c->n_fwd++] = (struct fwd){g->op.seq, g->tid};
    }
    qsort(c->fwd, c->n_fwd, sizeof(*c->fwd), cmp_fwd);
    return 1;
}

/* A backward op's forward thread: that of the forward op of its sequence
 * number (autograd stamps a node with it), else the process's main
 * thread (its tid is the pid), where a training loop runs its forward,
 * as the Nsight Systems reader takes it (nsys.c). */
static int64_t
fwd_tid(const struct conv *c, const struct pr_rec_range *g)
{
    struct fwd key = {g->op.seq, 0};
    const struct fwd *f =
        c->n_fwd > 0 ? bsearch(&key, c->fwd, c->n_fwd, sizeof(*c->fwd), cmp_fwd)
                     : NULL;

    return f != NULL ? (int64_t)f->tid : (int64_t)g->pid;
}

/* An NVTX range: an operator (emit_nvtx) or a user annotation. */
static void
write_range(struct conv *c, const struct pr_rec_range *g)
{
    struct pr_jsonw *w = c->w;
    char *name = NULL;

    /* emit_nvtx decorates every range ("ProfilerStep#2, op_id = 4") */
    if (g->op.name_len < strlen(g->text))
        name = strndup(g->text, g->op.name_len);
    open_event(c, "X", g->is_op ? "cpu_op" : "user_annotation",
               name != NULL ? name : g->text, g->pid, g->tid, g->start_ns);
    free(name);
    pr_jsonw_kus(w, "dur", g->end_ns - g->start_ns);
    open_args(c);
    pr_jsonw_kint(w, "External id", g->ext);
    if (g->is_op && g->op.sizes != NULL) {
        pr_jsonw_key(w, "Input Dims");
        pr_jsonw_rawn(w, g->op.sizes, g->op.sizes_len);
    }
    if (g->is_op && g->op.seq >= 0)
        pr_jsonw_kint(w, "Sequence number", g->op.seq);
    /* a backward op, as Kineto marks one (issue #29: the recorder's
       traces paired no layer's forward with its backward) */
    if (is_node(g))
        pr_jsonw_kint(w, "Fwd thread id", fwd_tid(c, g));
    close_args(c);
}

/* Running totals of [memory] events per (device type, device id). */
struct mem_total {
    int type;    /* c10::DeviceType: 0 CPU, 1 CUDA */
    int64_t dev; /* -1 for the CPU */
    int64_t bytes;
};

struct by_time {
    int64_t ts_ns;
    size_t idx;
};

static int
cmp_by_time(const void *pa, const void *pb)
{
    const struct by_time *a = pa, *b = pb;

    if (a->ts_ns != b->ts_ns)
        return a->ts_ns < b->ts_ns ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int
is_host_mem(int kind)
{
    return kind == PR_MEM_PAGEABLE || kind == PR_MEM_PINNED;
}

/* The running total for r's device, created on first use; NULL when the
 * (small, fixed) table is full. */
static struct mem_total *
mem_slot(struct mem_total *t, size_t *n, size_t cap, int type, int64_t dev)
{
    size_t i;

    for (i = 0; i < *n; i++)
        if (t[i].type == type && t[i].dev == dev)
            return &t[i];
    if (*n == cap)
        return NULL;
    t[*n] = (struct mem_total){type, dev, 0};
    return &t[(*n)++];
}

static void
write_memory_event(struct conv *c, const struct pr_rec *r,
                   struct mem_total *tot)
{
    const struct pr_rec *api = pr_correlate_api(c->s, c->l, r->correlation);
    uint32_t tid = api != NULL ? api->tid : r->tid ? r->tid : r->pid;
    int64_t bytes = r->bytes > INT64_MAX ? INT64_MAX : (int64_t)r->bytes;

    if (r->kind == PR_REC_FREE)
        bytes = -bytes;
    tot->bytes += bytes;
    open_event(c, "i", "cpu_instant_event", "[memory]", r->pid, tid,
               r->start_ns);
    pr_jsonw_kstr(c->w, "s", "t");
    open_args(c);
    pr_jsonw_kint(c->w, "Device Type", tot->type);
    pr_jsonw_kint(c->w, "Device Id", tot->dev);
    pr_jsonw_kuint(c->w, "Addr", r->address);
    pr_jsonw_kint(c->w, "Bytes", bytes);
    /* at the CUDA level what is allocated is also what is reserved */
    pr_jsonw_kint(c->w, "Total Allocated", tot->bytes);
    pr_jsonw_kint(c->w, "Total Reserved", tot->bytes);
    close_args(c);
}

static enum pr_status
write_memory(struct conv *c, struct pr_error *err)
{
    struct mem_total tot[64];
    struct by_time *order;
    size_t i, n = 0, n_tot = 0;

    order = calloc(c->s->n ? c->s->n : 1, sizeof(*order));
    if (order == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < c->s->n; i++) {
        const struct pr_rec *r = &c->s->recs[i];
        if ((r->kind == PR_REC_ALLOC || r->kind == PR_REC_FREE) && has_time(r))
            order[n++] = (struct by_time){r->start_ns, i};
    }
    qsort(order, n, sizeof(*order), cmp_by_time);
    for (i = 0; i < n; i++) {
        const struct pr_rec *r = &c->s->recs[order[i].idx];
        int host = is_host_mem(r->src_kind);
        struct mem_total *t = mem_slot(tot, &n_tot, N_OF(tot), host ? 0 : 1,
                                       host ? -1 : (int64_t)r->device);
        if (t != NULL)
            write_memory_event(c, r, t);
    }
    free(order);
    return PR_OK;
}

/* ac2g flow from the launching call to the GPU work it caused. */
static void
write_flow(struct conv *c, const struct pr_rec *r)
{
    const struct pr_rec *api = pr_correlate_api(c->s, c->l, r->correlation);

    if (api == NULL || !has_time(api))
        return;
    open_event(c, "s", "ac2g", "ac2g", api->pid, api->tid, api->start_ns);
    pr_jsonw_kuint(c->w, "id", r->correlation);
    pr_jsonw_raw(c->w, "}");
    open_event(c, "f", "ac2g", "ac2g", r->device, r->stream, r->start_ns);
    pr_jsonw_kuint(c->w, "id", r->correlation);
    pr_jsonw_kstr(c->w, "bp", "e");
    pr_jsonw_raw(c->w, "}");
}

static void
write_record(struct conv *c, const struct pr_rec *r)
{
    switch (r->kind) {
    case PR_REC_KERNEL:
        write_kernel(c, r);
        write_flow(c, r);
        break;
    case PR_REC_MEMCPY:
        write_memcpy(c, r);
        write_flow(c, r);
        break;
    case PR_REC_MEMSET:
        write_memset(c, r);
        write_flow(c, r);
        break;
    case PR_REC_RUNTIME:
    case PR_REC_DRIVER:
        write_api(c, r);
        break;
    case PR_REC_SYNC:
        write_sync(c, r);
        break;
    case PR_REC_MARKER:
        write_marker(c, r);
        break;
    default: /* ranges are written paired; memory in time order */
        break;
    }
}

static void
write_meta(struct conv *c, const char *what, int64_t pid, int64_t tid,
           const char *key, const char *value)
{
    open_event(c, "M", NULL, what, pid, tid, c->base_ns);
    open_args(c);
    pr_jsonw_kstr(c->w, key, value);
    close_args(c);
}

struct dev_stream {
    uint32_t dev, stream;
};

static int
cmp_dev_stream(const void *pa, const void *pb)
{
    const struct dev_stream *a = pa, *b = pb;

    if (a->dev != b->dev)
        return a->dev < b->dev ? -1 : 1;
    return a->stream < b->stream ? -1 : a->stream > b->stream;
}

static void
write_gpu_names(struct conv *c, struct dev_stream *ds, size_t n)
{
    char text[48];
    size_t i;

    qsort(ds, n, sizeof(*ds), cmp_dev_stream);
    for (i = 0; i < n; i++) {
        if (i == 0 || ds[i].dev != ds[i - 1].dev) {
            snprintf(text, sizeof(text), "GPU %u", (unsigned)ds[i].dev);
            write_meta(c, "process_name", ds[i].dev, 0, "name", text);
            write_meta(c, "process_labels", ds[i].dev, 0, "labels", text);
        }
        if (i > 0 && cmp_dev_stream(&ds[i], &ds[i - 1]) == 0)
            continue;
        snprintf(text, sizeof(text), "stream %u", (unsigned)ds[i].stream);
        write_meta(c, "thread_name", ds[i].dev, ds[i].stream, "name", text);
    }
}

static enum pr_status
write_metadata(struct conv *c, struct pr_error *err)
{
    char text[64];
    struct dev_stream *ds;
    size_t i, n = 0;

    if (c->m->process_name == NULL)
        snprintf(text, sizeof(text), "process %u", (unsigned)c->m->pid);
    write_meta(c, "process_name", c->m->pid, 0, "name",
               c->m->process_name != NULL ? c->m->process_name : text);
    write_meta(c, "process_labels", c->m->pid, 0, "labels", "CPU");
    ds = calloc(c->s->n ? c->s->n : 1, sizeof(*ds));
    if (ds == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < c->s->n; i++) {
        const struct pr_rec *r = &c->s->recs[i];
        if (r->kind == PR_REC_KERNEL || r->kind == PR_REC_MEMCPY ||
            r->kind == PR_REC_MEMSET)
            ds[n++] = (struct dev_stream){r->device, r->stream};
    }
    write_gpu_names(c, ds, n);
    free(ds);
    return PR_OK;
}

static void
write_device(struct pr_jsonw *w, const struct pr_record_device *d)
{
    pr_jsonw_raw(w, "{");
    w->first = 1;
    pr_jsonw_kint(w, "id", d->id);
    pr_jsonw_kstr(w, "name", d->name);
    pr_jsonw_kint(w, "totalGlobalMem", d->total_global_mem);
    pr_jsonw_kint(w, "computeMajor", d->cc_major);
    pr_jsonw_kint(w, "computeMinor", d->cc_minor);
    pr_jsonw_kint(w, "maxThreadsPerBlock", d->max_threads_per_block);
    pr_jsonw_kint(w, "maxThreadsPerMultiprocessor", d->max_threads_per_sm);
    pr_jsonw_kint(w, "regsPerBlock", d->regs_per_block);
    pr_jsonw_kint(w, "regsPerMultiprocessor", d->regs_per_sm);
    pr_jsonw_kint(w, "warpSize", d->warp_size);
    pr_jsonw_kint(w, "sharedMemPerBlock", d->smem_per_block);
    pr_jsonw_kint(w, "sharedMemPerMultiprocessor", d->smem_per_sm);
    pr_jsonw_kint(w, "numSms", d->num_sms);
    pr_jsonw_kint(w, "sharedMemPerBlockOptin", d->smem_per_block_optin);
    pr_jsonw_raw(w, "}");
}

static void
write_header(struct conv *c)
{
    struct pr_jsonw *w = c->w;
    size_t i;

    pr_jsonw_raw(w, "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [");
    for (i = 0; i < c->s->n_devs; i++) {
        pr_jsonw_raw(w, i ? ",\n    " : "\n    ");
        write_device(w, &c->s->devs[i]);
    }
    pr_jsonw_raw(w, c->s->n_devs ? "\n  ],\n" : "],\n");
    pr_jsonw_fmt(w, "  \"profreport_dropped_records\": %" PRIu64 ",\n",
                 c->s->dropped);
    pr_jsonw_fmt(w, "  \"profreport_unpaired_ranges\": %zu,\n",
                 c->l->n_unpaired);
    pr_jsonw_raw(w, "  \"displayTimeUnit\": \"ms\",\n");
    pr_jsonw_fmt(w, "  \"baseTimeNanoseconds\": %" PRId64 ",\n", c->base_ns);
    pr_jsonw_raw(w, "  \"traceEvents\": [");
}

static enum pr_status
write_events(struct conv *c, struct pr_error *err)
{
    enum pr_status st = write_metadata(c, err);
    size_t i;

    for (i = 0; st == PR_OK && i < c->l->n_ranges; i++)
        write_range(c, &c->l->ranges[i]);
    for (i = 0; st == PR_OK && i < c->s->n; i++)
        if (has_time(&c->s->recs[i]))
            write_record(c, &c->s->recs[i]);
    if (st == PR_OK)
        st = write_memory(c, err);
    return st;
}

enum pr_status
pr_record_write(const struct pr_record_session *s,
                const struct pr_record_meta *meta, FILE *fp, struct pr_buf *mem,
                struct pr_error *err)
{
    struct pr_rec_links links;
    struct pr_jsonw w;
    struct conv c;
    enum pr_status st;

    if ((fp == NULL) == (mem == NULL))
        return pr_error_set(err, PR_E_USAGE, "record: one output expected");
    st = pr_correlate_build(s, &links, err);
    if (st != PR_OK)
        return st;
    pr_jsonw_init(&w, fp, mem);
    c = (struct conv){s, &links, meta, &w, base_time(s), 0, NULL, 0};
    if (!fwd_threads(&c)) {
        pr_correlate_free(&links);
        return pr_error_set(err, PR_E_NOMEM, "out of memory (record)");
    }
    write_header(&c);
    st = write_events(&c, err);
    pr_jsonw_raw(&w, "\n  ]");
    if (meta->trace_name != NULL) {
        pr_jsonw_raw(&w, ",\n  \"traceName\": ");
        pr_jsonw_str(&w, meta->trace_name);
    }
    pr_jsonw_raw(&w, "\n}\n");
    pr_correlate_free(&links);
    free(c.fwd);
    if (st == PR_OK && w.st != PR_OK)
        st = pr_error_set(err, w.st, "cannot write the trace: %s",
                          pr_error_str(w.st));
    return st;
}
