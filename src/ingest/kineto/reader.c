/* reader.c - the JSON trace reader's orchestration: take the document's
 * bytes from a source (source.c: file or memory, gzip, read-ahead, size
 * cap), feed the splitter on a producer thread, parse batches of events on
 * N parser threads, and merge the batches into the trace in file order on
 * the calling thread (the only one that touches the trace and its string
 * table).  Scanning is split.c, per-event conversion events.c. */
#include "config.h"

#include <inttypes.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../internal.h"
#include "profreport/progress.h"
#include "profreport/reader.h"
#include "profreport/shapes.h"

#define BATCH_BYTES ((size_t)1 << 20) /* event text per batch */
#define BATCH_EVENTS 16384            /* events per batch, for tiny events */
#define MAX_PARSERS 64
#define SMALL_TRACE_BYTES ((uint64_t)64 << 20) /* kept from trim, below */

/* ------------------------------------------------------------ batches */

/* One event's text inside a batch. */
struct ev_ref {
    uint64_t index;  /* in traceEvents */
    uint64_t offset; /* in the document */
    size_t start;    /* in batch text */
    size_t len;
};

/* A run of consecutive events: filled by the producer, parsed by one
 * parser thread, merged by the calling thread, then reused. */
struct batch {
    uint64_t seq;
    struct pr_buf text;
    struct ev_ref *refs;
    size_t n_refs, cap_refs;
    uint64_t end_pos;       /* document bytes read when it was closed */
    uint64_t end_raw;       /* file bytes behind them (a .gz's) */
    int last;               /* the producer's final batch */
    enum pr_status prod_st; /* last only: how the producer ended */
    struct pr_error prod_err;
    struct pr_recs recs; /* what parsing made of it */
    enum pr_status st;
    struct pr_error err;
    struct batch *next; /* queue link */
};

struct ctx {
    const char *name;
    struct pr_source *src; /* owned */
    struct pr_split split;
    pthread_mutex_t mu;
    pthread_cond_t cv_free, cv_todo, cv_done;
    struct batch *pool; /* owned, n_pool */
    size_t n_pool;
    struct batch *free_list, *todo_head, *todo_tail, *done_list;
    int stop;          /* set by the merger: everyone leaves */
    struct batch *cur; /* the producer's batch being filled */
    uint64_t seq;      /* the producer's next batch number */
    uint64_t n_phased; /* events merged that have a "ph" */
};

static void
batch_init(struct batch *b)
{
    memset(b, 0, sizeof(*b));
    pr_buf_init(&b->text, 0);
    pr_recs_init(&b->recs);
}

static void
batch_free(struct batch *b)
{
    pr_buf_free(&b->text);
    free(b->refs);
    pr_recs_free(&b->recs);
}

/* Producer side: a batch to fill, or NULL once the merger has stopped. */
static struct batch *
take_free(struct ctx *c)
{
    struct batch *b;

    pthread_mutex_lock(&c->mu);
    while (c->free_list == NULL && !c->stop)
        pthread_cond_wait(&c->cv_free, &c->mu);
    b = c->stop ? NULL : c->free_list;
    if (b != NULL)
        c->free_list = b->next;
    pthread_mutex_unlock(&c->mu);
    if (b == NULL)
        return NULL;
    /* an unusually large event grew it: give the memory back */
    if (b->text.cap > 4 * BATCH_BYTES)
        pr_buf_free(&b->text);
    pr_buf_reset(&b->text);
    b->n_refs = 0;
    b->last = 0;
    b->seq = c->seq++;
    return b;
}

static void
push_todo(struct ctx *c, struct batch *b)
{
    b->end_pos = pr_source_bytes(c->src);
    b->end_raw = pr_source_raw_bytes(c->src);
    pthread_mutex_lock(&c->mu);
    b->next = NULL;
    if (c->todo_tail != NULL)
        c->todo_tail->next = b;
    else
        c->todo_head = b;
    c->todo_tail = b;
    pthread_cond_signal(&c->cv_todo);
    pthread_mutex_unlock(&c->mu);
}

/* Parser side: the oldest unparsed batch, or NULL when stopping. */
static struct batch *
take_todo(struct ctx *c)
{
    struct batch *b;

    pthread_mutex_lock(&c->mu);
    while (c->todo_head == NULL && !c->stop)
        pthread_cond_wait(&c->cv_todo, &c->mu);
    b = c->stop ? NULL : c->todo_head;
    if (b != NULL) {
        c->todo_head = b->next;
        if (c->todo_head == NULL)
            c->todo_tail = NULL;
    }
    pthread_mutex_unlock(&c->mu);
    return b;
}

static void
put_done(struct ctx *c, struct batch *b)
{
    pthread_mutex_lock(&c->mu);
    b->next = c->done_list;
    c->done_list = b;
    pthread_cond_broadcast(&c->cv_done);
    pthread_mutex_unlock(&c->mu);
}

/* Merger side: batch number `seq` once it is parsed. */
static struct batch *
take_done(struct ctx *c, uint64_t seq)
{
    struct batch **pp, *b = NULL;

    pthread_mutex_lock(&c->mu);
    while (b == NULL) {
        for (pp = &c->done_list; *pp != NULL; pp = &(*pp)->next) {
            if ((*pp)->seq == seq) {
                b = *pp;
                *pp = b->next;
                break;
            }
        }
        if (b == NULL)
            pthread_cond_wait(&c->cv_done, &c->mu);
    }
    pthread_mutex_unlock(&c->mu);
    return b;
}

static void
give_free(struct ctx *c, struct batch *b)
{
    pthread_mutex_lock(&c->mu);
    b->next = c->free_list;
    c->free_list = b;
    pthread_cond_signal(&c->cv_free);
    pthread_mutex_unlock(&c->mu);
}

static void
stop_all(struct ctx *c)
{
    pthread_mutex_lock(&c->mu);
    c->stop = 1;
    pthread_cond_broadcast(&c->cv_free);
    pthread_cond_broadcast(&c->cv_todo);
    pthread_cond_broadcast(&c->cv_done);
    pthread_mutex_unlock(&c->mu);
}

static int
is_stopped(struct ctx *c)
{
    int stop;

    pthread_mutex_lock(&c->mu);
    stop = c->stop;
    pthread_mutex_unlock(&c->mu);
    return stop;
}

/* ------------------------------------------------------------ producer */

/* split.c hands each event here: copy it into the current batch, and pass
 * the batch on when it is full. */
static enum pr_status
on_event(void *arg, uint64_t index, uint64_t offset, const char *text,
         size_t len, struct pr_error *err)
{
    struct ctx *c = arg;
    struct batch *b = c->cur;
    size_t start = b->text.len;

    if (index >= UINT32_MAX)
        return pr_error_set(err, PR_E_LIMIT,
                            "byte %" PRIu64 ": more than %" PRIu32 " events",
                            offset, UINT32_MAX - 1);
    if (pr_grow((void **)&b->refs, &b->cap_refs, b->n_refs + 1,
                sizeof(*b->refs)) != PR_OK ||
        pr_buf_add(&b->text, text, len) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    b->refs[b->n_refs].index = index;
    b->refs[b->n_refs].offset = offset;
    b->refs[b->n_refs].start = start;
    b->refs[b->n_refs].len = len;
    b->n_refs++;
    if (b->text.len < BATCH_BYTES && b->n_refs < BATCH_EVENTS)
        return PR_OK;
    push_todo(c, b);
    c->cur = take_free(c);
    if (c->cur == NULL) /* the merger failed; its error is the one shown */
        return pr_error_set(err, PR_E_IO, "stopped");
    return PR_OK;
}

static enum pr_status
produce(struct ctx *c, struct pr_error *err)
{
    const char *p = NULL;
    size_t n;
    enum pr_status st;

    for (;;) {
        /* the merger may have failed while we skip a long stretch with no
         * events to hand over (where on_event would notice) */
        if (is_stopped(c))
            return pr_error_set(err, PR_E_IO, "stopped");
        st = pr_source_next(c->src, &p, &n, err);
        if (st != PR_OK)
            return st;
        if (n == 0)
            return pr_split_finish(&c->split, err);
        st = pr_split_feed(&c->split, p, n, err);
        if (st != PR_OK)
            return st;
    }
}

/* The producer always ends by sending a batch marked `last` that carries
 * its outcome, so the merger sees errors in file order. */
static void *
producer_main(void *arg)
{
    struct ctx *c = arg;
    struct pr_error err;
    enum pr_status st;

    pr_error_clear(&err);
    c->cur = take_free(c);
    st = c->cur != NULL ? produce(c, &err) : PR_E_IO;
    if (c->cur == NULL)
        return NULL;
    c->cur->last = 1;
    c->cur->prod_st = st;
    c->cur->prod_err = err;
    push_todo(c, c->cur);
    c->cur = NULL;
    return NULL;
}

/* ------------------------------------------------------------ parsers */

static void
parse_batch(struct batch *b)
{
    size_t i;

    pr_recs_reset(&b->recs);
    pr_error_clear(&b->err);
    b->st = PR_OK;
    for (i = 0; i < b->n_refs && b->st == PR_OK; i++) {
        const struct ev_ref *r = &b->refs[i];

        b->st = pr_recs_add_event(&b->recs, b->text.data + r->start, r->len,
                                  r->index, r->offset, &b->err);
    }
}

static void *
parser_main(void *arg)
{
    struct ctx *c = arg;
    struct batch *b;

    while ((b = take_todo(c)) != NULL) {
        parse_batch(b);
        put_done(c, b);
    }
    return NULL;
}

/* ------------------------------------------------------------ merge */

static uint32_t
map_opt(const uint32_t *map, uint32_t id)
{
    return id == PR_STR_NONE ? PR_STR_NONE : map[id];
}

/* Move an event's side record into the trace; e->info becomes its index
 * there. */
static enum pr_status
merge_info(struct pr_trace *t, const struct pr_recs *r, struct pr_event *e,
           const uint32_t *map)
{
    struct pr_op_info *o;
    const struct pr_py_ids *py;
    struct pr_gpu_info *g;
    struct pr_mem_info *m;
    uint32_t at = e->info, idx = PR_NO_INFO;

    if (at == PR_NO_INFO)
        return PR_OK;
    switch (pr_info_table_of(e->kind)) {
    case PR_INFO_OP:
        o = pr_trace_add_op(t, &idx);
        if (o == NULL)
            return PR_E_NOMEM;
        *o = r->ops[at];
        py = pr_py_find(r->pyids, r->n_pyids, at);
        if (py != NULL &&
            pr_trace_set_py(t, idx, py->id, py->parent, py->module) != PR_OK)
            return PR_E_NOMEM;
        o->input_dims = map_opt(map, o->input_dims);
        o->input_types = map_opt(map, o->input_types);
        o->concrete_inputs = map_opt(map, o->concrete_inputs);
        o->input_strides = map_opt(map, o->input_strides);
        o->stack = map_opt(map, o->stack);
        break;
    case PR_INFO_GPU:
        g = pr_trace_add_gpu(t, &idx);
        if (g == NULL)
            return PR_E_NOMEM;
        *g = r->gpu[at];
        g->collective = map_opt(map, g->collective);
        g->dtype = map_opt(map, g->dtype);
        break;
    case PR_INFO_MEM:
        m = pr_trace_add_mem(t, &idx);
        if (m == NULL)
            return PR_E_NOMEM;
        *m = r->mem[at];
        break;
    default:
        break;
    }
    e->info = idx;
    return PR_OK;
}

static void
add_diag(struct pr_diag *to, const struct pr_diag *from)
{
    to->skipped_no_dur += from->skipped_no_dur;
    to->skipped_bad_ts += from->skipped_bad_ts;
    to->negative_dur += from->negative_dur;
    to->unknown_cat += from->unknown_cat;
    to->non_object += from->non_object;
}

/* Intern a batch's strings once each; map[local id] = trace id.  Texts of
 * op inputs go to the model to be parsed, once per distinct text. */
static enum pr_status
map_strings(struct pr_trace *t, const struct pr_pool *p, uint32_t **map,
            size_t *cap)
{
    size_t i;
    int w;

    if (p->n > 0 && pr_grow((void **)map, cap, p->n, sizeof(**map)) != PR_OK)
        return PR_E_NOMEM;
    for (i = 0; i < p->n; i++) {
        uint32_t id = pr_strtab_intern(t->strs, pr_pool_str(p, (uint32_t)i),
                                       p->ents[i].len);

        if (id == PR_STR_NONE)
            return PR_E_NOMEM;
        (*map)[i] = id;
        for (w = 0; w < PR_SHAPES_N_WHAT; w++) {
            if (((p->ents[i].uses >> w) & 1) &&
                pr_shapes_note(t, (enum pr_shapes_what)w, id) != PR_OK)
                return PR_E_NOMEM;
        }
    }
    return PR_OK;
}

/* The trace's index of each of the batch's (cat, pid, tid) triples, in
 * *wmap (grown as needed; index 0 included even when not stored). */
static enum pr_status
map_wheres(struct pr_trace *t, const struct pr_recs *r, const uint32_t *map,
           uint32_t **wmap, size_t *wmap_cap)
{
    size_t j, n = r->wheres.n ? r->wheres.n : 1;

    if (pr_grow((void **)wmap, wmap_cap, n, sizeof(**wmap)) != PR_OK)
        return PR_E_NOMEM;
    for (j = 0; j < n; j++) {
        struct pr_where x = pr_wheres_get(&r->wheres, (uint32_t)j);

        if (pr_wheres_intern(&t->wheres, map[x.cat], map[x.pid], map[x.tid],
                             &(*wmap)[j]) != PR_OK)
            return PR_E_NOMEM;
    }
    return PR_OK;
}

/* An event of the batch in the trace's terms: strings, triple, and the
 * ids the batch kept as wide ones. */
static enum pr_status
merge_event(struct pr_trace *t, const struct pr_recs *r,
            const struct pr_event *x, const uint32_t *map, const uint32_t *wmap)
{
    struct pr_event *e = pr_trace_add_event(t);

    if (e == NULL)
        return PR_E_NOMEM;
    *e = *x;
    e->name = map[x->name];
    e->where = wmap[x->where];
    /* a wide id's code names the batch's table: file it in the trace's */
    e->ext_code = x->ext_code <= -2 ? -1 : x->ext_code;
    e->corr_code = x->corr_code <= -2 ? -1 : x->corr_code;
    if ((x->ext_code <= -2 &&
         pr_event_set_external_id(
             t, e, pr_wide_ids_get(&r->wide, x->ext_code)) != PR_OK) ||
        (x->corr_code <= -2 &&
         pr_event_set_correlation(
             t, e, pr_wide_ids_get(&r->wide, x->corr_code)) != PR_OK))
        return PR_E_NOMEM;
    return merge_info(t, r, e, map);
}

static enum pr_status
merge_batch(struct pr_trace *t, const struct batch *b, uint32_t **map,
            size_t *map_cap)
{
    const struct pr_recs *r = &b->recs;
    uint32_t *wmap = NULL;
    size_t i, wmap_cap = 0;
    enum pr_status st = PR_OK;

    if (map_strings(t, &r->strs, map, map_cap) != PR_OK ||
        (r->n_ev > 0 && map_wheres(t, r, *map, &wmap, &wmap_cap) != PR_OK))
        st = PR_E_NOMEM;
    for (i = 0; i < r->n_ev && st == PR_OK; i++)
        st = merge_event(t, r, &r->ev[i], *map, wmap);
    free(wmap);
    if (st != PR_OK)
        return st;
    for (i = 0; i < r->n_flows; i++) {
        if (pr_trace_add_flow(t, &r->flows[i]) != PR_OK)
            return PR_E_NOMEM;
    }
    add_diag(&t->diag, &r->diag);
    if (r->has_window_end &&
        (!t->has_window_end || r->window_end_ns > t->window_end_ns)) {
        t->window_end_ns = r->window_end_ns;
        t->has_window_end = 1;
    }
    if (r->n_ev_idx > 0) {
        if (t->n_ev_idx == 0 || r->ev_idx_min < t->ev_idx_min)
            t->ev_idx_min = r->ev_idx_min;
        if (t->n_ev_idx == 0 || r->ev_idx_max > t->ev_idx_max)
            t->ev_idx_max = r->ev_idx_max;
        t->n_ev_idx += r->n_ev_idx;
    }
    t->n_trace_events += b->n_refs;
    return PR_OK;
}

/* The calling thread's loop: batches in file order until the last one or
 * the first error (the earliest in the file wins). */
static enum pr_status
merge_all(struct ctx *c, struct pr_trace *t, struct pr_progress *pg,
          struct pr_error *err)
{
    uint32_t *map = NULL;
    size_t map_cap = 0;
    uint64_t seq;
    enum pr_status st = PR_OK;
    int last = 0;

    for (seq = 0; st == PR_OK && !last; seq++) {
        struct batch *b = take_done(c, seq);

        last = b->last;
        if (b->st != PR_OK)
            st = pr_error_set(err, b->st, "%s", b->err.msg);
        else if (merge_batch(t, b, &map, &map_cap) != PR_OK)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
        else if (last && b->prod_st != PR_OK)
            st = pr_error_set(err, b->prod_st, "%s", b->prod_err.msg);
        c->n_phased += b->recs.n_phased;
        pr_progress_bytes(pg, b->end_raw);
        give_free(c, b);
    }
    free(map);
    return st;
}

/* ------------------------------------------------------------ orchestration */

static int
parsers_for(const struct pr_read_opts *opts)
{
    long n = opts != NULL ? opts->threads : 0;

    if (n <= 0) {
        n = sysconf(_SC_NPROCESSORS_ONLN);
        n = n < 2 ? 2 : n;
    }
    return n > MAX_PARSERS ? MAX_PARSERS : (int)n;
}

static enum pr_status
ctx_init(struct ctx *c, size_t n_pool)
{
    size_t i;

    c->pool = calloc(n_pool, sizeof(*c->pool));
    if (c->pool == NULL)
        return PR_E_NOMEM;
    c->n_pool = n_pool;
    for (i = 0; i < n_pool; i++) {
        batch_init(&c->pool[i]);
        c->pool[i].next = c->free_list;
        c->free_list = &c->pool[i];
    }
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv_free, NULL);
    pthread_cond_init(&c->cv_todo, NULL);
    pthread_cond_init(&c->cv_done, NULL);
    pr_split_init(&c->split, on_event, c);
    return PR_OK;
}

/* Release everything but the trace; safe to call twice. */
static void
ctx_free(struct ctx *c)
{
    size_t i;

    for (i = 0; i < c->n_pool; i++)
        batch_free(&c->pool[i]);
    free(c->pool);
    if (c->n_pool > 0) {
        pthread_mutex_destroy(&c->mu);
        pthread_cond_destroy(&c->cv_free);
        pthread_cond_destroy(&c->cv_todo);
        pthread_cond_destroy(&c->cv_done);
    }
    c->pool = NULL;
    c->n_pool = 0;
    pr_split_free(&c->split);
    pr_source_close(c->src);
    c->src = NULL;
}

/* Start the producer and the parsers, merge, stop everyone. */
static enum pr_status
run_threads(struct ctx *c, int n_parsers, struct pr_trace *t,
            struct pr_progress *pg, struct pr_error *err)
{
    pthread_t prod, parsers[MAX_PARSERS];
    int n_started = 0, i;
    enum pr_status st;

    for (i = 0; i < n_parsers; i++) {
        if (pthread_create(&parsers[n_started], NULL, parser_main, c) == 0)
            n_started++;
    }
    if (n_started == 0 || pthread_create(&prod, NULL, producer_main, c) != 0) {
        stop_all(c);
        for (i = 0; i < n_started; i++)
            pthread_join(parsers[i], NULL);
        return pr_error_set(err, PR_E_NOMEM, "cannot start threads");
    }
    st = merge_all(c, t, pg, err);
    stop_all(c);
    pthread_join(prod, NULL);
    for (i = 0; i < n_started; i++)
        pthread_join(parsers[i], NULL);
    return st;
}

static uint64_t
max_of(const struct pr_read_opts *opts)
{
    return opts != NULL ? opts->max_input_bytes : 0; /* 0: the default */
}

/* Read the document of c->src (already open) into a new trace. */
static enum pr_status
load(struct ctx *c, const struct pr_read_opts *opts, struct pr_trace **out,
     struct pr_error *err)
{
    int n_parsers = parsers_for(opts);
    struct pr_progress *pg = opts != NULL ? opts->progress : NULL;
    struct pr_trace *t = NULL;
    enum pr_status st;

    st = ctx_init(c, (size_t)n_parsers * 2 + 2);
    if (st != PR_OK)
        return pr_error_set(err, st, "out of memory");
    t = pr_trace_new();
    if (t == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    st = run_threads(c, n_parsers, t, pg, err);
    if (st == PR_OK && c->split.bare && c->n_phased == 0)
        st = pr_error_set(err, PR_E_NOT_FORMAT,
                          "not a profiler trace (an array without any "
                          "event that has a \"ph\")");
    if (st == PR_OK)
        st = pr_recs_apply_meta(t, &c->split, err);
    if (st == PR_OK && pr_ingest_hip_global_grids(t) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    t->bytes = pr_source_bytes(c->src);
    /* The batches are done with: give their memory back before the final
     * sort allocates its own, so the two never add up at the peak.  The
     * parser threads' malloc arenas keep freed memory unless trimmed. */
    ctx_free(c);
#if defined(__GLIBC__) && !PR_SANITIZED
    /* (a small trace's batches are a few MB: returned to the system and
     * faulted in again for each of a job's many ranks they cost more
     * than they save, issue #33) */
    if (t->bytes >= SMALL_TRACE_BYTES)
        malloc_trim(0);
#endif
    if (st != PR_OK) {
        pr_trace_free(t);
        return st;
    }
    /* the bytes are read; ordering them is the analysis's first step */
    pr_progress_read(pg);
    pr_trace_finish_threads(t, n_parsers);
    if (pr_ingest_link_ranges(t) != PR_OK) {
        pr_trace_free(t);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    *out = t;
    return PR_OK;
}

enum pr_status
pr_reader_load(const char *path, const struct pr_read_opts *opts,
               struct pr_trace **out, struct pr_error *err)
{
    struct ctx c;
    enum pr_status st;

    *out = NULL;
    memset(&c, 0, sizeof(c));
    c.name = path;
    st = pr_source_open(path, max_of(opts), 1, &c.src, err);
    if (st == PR_OK)
        st = load(&c, opts, out, err);
    ctx_free(&c);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}

enum pr_status
pr_reader_load_mem(const char *name, const void *data, size_t len,
                   const struct pr_read_opts *opts, struct pr_trace **out,
                   struct pr_error *err)
{
    struct ctx c;
    enum pr_status st;

    *out = NULL;
    memset(&c, 0, sizeof(c));
    c.name = name;
    st = pr_source_open_mem(data, len, max_of(opts), 1, &c.src, err);
    if (st == PR_OK)
        st = load(&c, opts, out, err);
    ctx_free(&c);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", name);
    return st;
}
