/* ascend_comm.c - communication.json (spec §2.4): per step, per HCCL
 * operation ("hcom_allReduce__483_2@<group>"), its start, where its time
 * went (Elapse = Transit + Wait + Idle; Synchronization, the part of Wait
 * before the first transfer) and the bytes it moved per link type.  Every
 * operation goes to the trace's phases (phases.h) in the producer's
 * words.  The operation is also matched to its task (the task of the
 * same name starting within 1 µs of its Start Timestamp, a double in the
 * file): the task gets the collective its name says when the task's own
 * row did not, and the size of its group: its members where
 * profiler_metadata.json's parallel_group_info lists them, else the
 * ranks communication_matrix.json's links name (a lower bound).
 * trace_view.json gives each collective its element count and type; a
 * folder without it has its collectives only as kernel_details rows,
 * with no size, and takes from here the bytes HCCL transferred, SDMA +
 * RDMA, marked as link bytes (PR_DTYPE_LINK_BYTES): msprof sums HCCS,
 * PCIE and SIO into SDMA (its combine_sdma_info), so those entries are
 * parts of SDMA, never added to it.  They are what this rank sent, not
 * the message: an 8-rank all-reduce sends 2(n-1)/n = 1.75 times its
 * message (text_level1, whose trace_view gives both), so the analysis
 * divides by the collective's factor where the group's size is known
 * (docs/differences.md).
 *
 * communication_matrix.json (spec §2.4): per step, per operation, the
 * traffic of each link "src-dst" (ranks within the operation's group)
 * with its transport, size (MB = 10^6 bytes) and time (ms).  Each link
 * becomes a pr_link.  The 2025 export lists, per collective type, a few
 * sample operations (top1, middle, bottom1..3, which repeat each other)
 * and their "-total": only the totals are taken then; the 2023 export
 * lists every operation and a "Total Op Info" that sums them across
 * groups, which is left out. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../internal.h"
#include "ascend.h"
#include "ascend_common.h"
#include "profreport/phases.h"

#define MATCH_NS 1000

static enum pr_status
read_text(const char *path, uint64_t max, struct pr_buf *text,
          struct pr_error *err)
{
    struct pr_source *src = NULL;
    const char *p;
    size_t n;
    enum pr_status st = pr_source_open(path, max, 0, &src, err);

    while (st == PR_OK && (st = pr_source_next(src, &p, &n, err)) == PR_OK &&
           n > 0)
        if (pr_buf_add(text, p, n) != PR_OK)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    pr_source_close(src);
    return st;
}

/* A number field of `o` scaled (ms to ns), PR_PHASE_UNKNOWN when absent
 * or not a finite number >= 0. */
static int64_t
time_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    double x;

    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0)
        return PR_PHASE_UNKNOWN;
    x = v->valuedouble * 1e6;
    return x > 9e18 ? PR_PHASE_UNKNOWN : (int64_t)llround(x);
}

/* Transit Size(MB) of link type `type`, in bytes (MB = 10^6 here, as
 * msprof's COMMUNICATION_B_to_MB); -1 when the entry names none. */
static double
link_bytes(const cJSON *bw, const char *type)
{
    const cJSON *mb = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(bw, type), "Transit Size(MB)");

    if (!cJSON_IsNumber(mb) || !isfinite(mb->valuedouble) ||
        mb->valuedouble < 0 || mb->valuedouble > 9e12)
        return -1;
    return mb->valuedouble * 1e6;
}

/* Transit Time(ms) of link type `type`, in ns; PR_PHASE_UNKNOWN when
 * the entry names none. */
static int64_t
link_ns(const cJSON *bw, const char *type)
{
    return time_of(cJSON_GetObjectItemCaseSensitive(bw, type),
                   "Transit Time(ms)");
}

/* An HCCL task by its start. */
struct ckey {
    int64_t ts;
    size_t ev;
};

/* The HCCL tasks by start, to find an operation's task. */
struct comm_idx {
    struct pr_trace *t;
    struct ckey *ev; /* sorted by start, then event */
    size_t n;
    /* profiler_metadata.json's parallel_group_info (torch_npu: per HCCL
     * group name, its global_ranks); NULL when the folder has none */
    const cJSON *groups;
};

static int
cmp_start(const void *a, const void *b)
{
    const struct ckey *x = a, *y = b;

    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->ev < y->ev ? -1 : x->ev > y->ev;
}

static enum pr_status
index_comm(struct comm_idx *ix)
{
    struct pr_trace *t = ix->t;
    size_t i;

    ix->ev = malloc((t->n_events ? t->n_events : 1) * sizeof(*ix->ev));
    if (ix->ev == NULL)
        return PR_E_NOMEM;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind == PR_KIND_DEVICE_TASK && e->info != PR_NO_INFO &&
            t->gpu[e->info].unit == PR_UNIT_COMM) {
            ix->ev[ix->n].ts = e->ts_ns;
            ix->ev[ix->n++].ev = i;
        }
    }
    if (ix->n > 0)
        qsort(ix->ev, ix->n, sizeof(*ix->ev), cmp_start);
    return PR_OK;
}

/* The HCCL task named `name` (len bytes) starting within MATCH_NS of
 * `ts`. */
static struct pr_gpu_info *
task_named(const struct comm_idx *ix, const char *name, size_t len, int64_t ts)
{
    struct pr_trace *t = ix->t;
    size_t lo = 0, hi = ix->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (ix->ev[mid].ts < ts - MATCH_NS)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < ix->n && ix->ev[lo].ts <= ts + MATCH_NS; lo++) {
        const struct pr_event *e = &t->events[ix->ev[lo].ev];
        const char *n = pr_trace_str(t, e->name);

        if (strlen(n) == len && memcmp(n, name, len) == 0)
            return &t->gpu[e->info];
    }
    return NULL;
}

/* The group sizes communication_matrix.json shows: per group, one more
 * than the highest rank a link names (as the database reader counts its
 * tasks' ranks); exact when every peer is addressed, a lower bound for a
 * ring, and nothing in these files tells which: the trace says it is a
 * lower bound (group_floor). */
static int32_t
group_size(struct pr_trace *t, const cJSON *groups, uint32_t group)
{
    const cJSON *ranks = NULL, *v;
    int32_t top = -1, n = 0;
    size_t i;

    /* the group's members where parallel_group_info lists them, by the
       group name after the operation's '@' (msprof-analyze's
       communication groups read them so) */
    if (groups != NULL && group != PR_STR_NONE)
        ranks = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(groups, pr_trace_str(t, group)),
            "global_ranks");
    if (!cJSON_IsArray(ranks))
        ranks = NULL;
    cJSON_ArrayForEach(v, ranks)
    {
        if (!cJSON_IsNumber(v) || v->valuedouble < 0 || n == INT32_MAX) {
            n = 0;
            break;
        }
        n++;
    }
    if (n > 0)
        return n;

    for (i = 0; group != PR_STR_NONE && i < t->n_links; i++) {
        const struct pr_link *l = &t->links[i];

        if (l->group != group)
            continue;
        if (l->src > top)
            top = l->src;
        if (l->dst > top)
            top = l->dst;
    }
    if (top < 0 || top >= INT32_MAX)
        return -1;
    t->group_floor = 1; /* no file here names the group's members */
    return top + 1;
}

/* "step50" -> 50; "step" (no schedule) and anything else -> -1. */
static int64_t
step_number(const char *key)
{
    int64_t n;

    if (key == NULL || strncmp(key, "step", 4) != 0 || key[4] == '\0' ||
        !pr_fld_parse_int64(key + 4, strlen(key + 4), &n) || n < 0)
        return -1;
    return n;
}

/* One operation into the phases: 0 on out-of-memory. */
static int
keep_op(struct pr_trace *t, const cJSON *groups, const cJSON *op, int64_t step,
        int p2p, struct pr_comm_stat **out)
{
    const cJSON *info =
        cJSON_GetObjectItemCaseSensitive(op, "Communication Time Info");
    const cJSON *bw =
        cJSON_GetObjectItemCaseSensitive(op, "Communication Bandwidth Info");
    const cJSON *start =
        cJSON_GetObjectItemCaseSensitive(info, "Start Timestamp(us)");
    const char *at = strchr(op->string, '@');
    size_t len = at ? (size_t)(at - op->string) : strlen(op->string);
    struct pr_comm_stat *c = pr_phases_add_comm(t);
    int64_t ts;

    if (c == NULL)
        return 0;
    c->name = pr_strtab_intern(t->strs, op->string, len);
    if (at != NULL)
        c->group = pr_strtab_intern(t->strs, at + 1, strlen(at + 1));
    if (c->name == PR_STR_NONE || (at != NULL && c->group == PR_STR_NONE))
        return 0;
    c->step = step;
    c->p2p = p2p;
    c->group_size = group_size(t, groups, c->group);
    if (cJSON_IsNumber(start) &&
        pr_fld_us_to_ns(start->valuedouble, &ts) == PR_FLD_OK)
        c->start_ns = ts;
    c->elapse_ns = time_of(info, "Elapse Time(ms)");
    c->transit_ns = time_of(info, "Transit Time(ms)");
    c->wait_ns = time_of(info, "Wait Time(ms)");
    c->sync_ns = time_of(info, "Synchronization Time(ms)");
    c->idle_ns = time_of(info, "Idle Time(ms)");
    c->sdma_bytes = link_bytes(bw, "SDMA");
    c->rdma_bytes = link_bytes(bw, "RDMA");
    c->hccs_bytes = link_bytes(bw, "HCCS");
    c->pcie_bytes = link_bytes(bw, "PCIE");
    c->sio_bytes = link_bytes(bw, "SIO");
    /* their times: an operation whose own Transit Time is 0 is rated
       over them (pr_comm_stat_rated_ns) */
    c->sdma_ns = link_ns(bw, "SDMA");
    c->rdma_ns = link_ns(bw, "RDMA");
    c->hccs_ns = link_ns(bw, "HCCS");
    c->pcie_ns = link_ns(bw, "PCIE");
    c->sio_ns = link_ns(bw, "SIO");
    *out = c;
    return 1;
}

/* What an operation tells its task: the collective its name says, its
 * group's size, and (without the timeline) the bytes it moved. */
static void
tell_task(struct pr_asc *a, const struct comm_idx *ix,
          const struct pr_comm_stat *c, uint32_t byte_type)
{
    struct pr_trace *t = a->t;
    const char *name = pr_trace_str(t, c->name);
    double bytes = pr_comm_stat_bytes(c);
    struct pr_gpu_info *g;
    const char *coll;

    if (c->start_ns == PR_PHASE_UNKNOWN)
        return;
    g = task_named(ix, name, strlen(name), c->start_ns);
    if (g == NULL)
        return;
    coll = pr_ascend_collective(name);
    if (coll != NULL && (g->collective == PR_STR_NONE ||
                         pr_trace_str(t, g->collective)[0] == '\0'))
        g->collective = pr_strtab_intern(t->strs, coll, strlen(coll));
    if (g->group_size < 0)
        g->group_size = group_size(t, ix->groups, c->group);
    if (a->has_tv || g->in_nelems >= 0 || bytes < 0 || bytes > 9e18)
        return;
    g->dtype = byte_type;
    g->in_nelems = g->out_nelems = (int64_t)llround(bytes);
    a->n_sized++;
}

static enum pr_status
comm_doc(struct pr_asc *a, const cJSON *doc, const struct comm_idx *ix)
{
    uint32_t byte_type = pr_strtab_intern(a->t->strs, PR_DTYPE_LINK_BYTES,
                                          strlen(PR_DTYPE_LINK_BYTES));
    const cJSON *step, *kind, *op;
    struct pr_comm_stat *c;

    if (byte_type == PR_STR_NONE)
        return PR_E_NOMEM;
    cJSON_ArrayForEach(step, doc)
    {
        cJSON_ArrayForEach(kind, step)
        {
            int p2p = kind->string && strcmp(kind->string, "p2p") == 0;

            if (kind->string == NULL ||
                (!p2p && strcmp(kind->string, "collective") != 0))
                continue;
            cJSON_ArrayForEach(op, kind)
            {
                if (op->string == NULL || !cJSON_IsObject(op) ||
                    strcmp(op->string, "Total Op Info") == 0)
                    continue;
                if (!keep_op(a->t, ix->groups, op, step_number(step->string),
                             p2p, &c))
                    return PR_E_NOMEM;
                tell_task(a, ix, c, byte_type);
            }
        }
    }
    if (a->t->phases != NULL)
        a->t->phases->comm_source = "communication.json";
    return PR_OK;
}

/* profiler_metadata.json beside the export folder (`out`/..): its
 * parallel_group_info, an object or its text as a string, parsed into
 * *meta (the caller deletes both); NULL when absent or unreadable, which
 * fails nothing: the sizes then come from the links. */
static const cJSON *
read_groups(const struct pr_asc *a, cJSON **meta, cJSON **inner)
{
    char path[4096];
    struct pr_buf text;
    struct pr_error ignored;
    const cJSON *g = NULL;
    int w;

    *meta = *inner = NULL;
    if (a->file != NULL)
        return NULL;
    w = snprintf(path, sizeof(path), "%s/../profiler_metadata.json", a->out);
    if (w < 0 || (size_t)w >= sizeof(path))
        return NULL;
    pr_buf_init(&text, 0);
    pr_error_clear(&ignored);
    if (read_text(path, 16u << 20, &text, &ignored) == PR_OK &&
        pr_ascend_json_text(text.data ? text.data : "", text.len, &ignored) ==
            PR_OK)
        *meta = cJSON_ParseWithLength(text.data ? text.data : "", text.len);
    pr_buf_free(&text);
    g = cJSON_GetObjectItemCaseSensitive(*meta, "parallel_group_info");
    if (cJSON_IsString(g))
        g = *inner = cJSON_Parse(g->valuestring);
    return cJSON_IsObject(g) ? g : NULL;
}

enum pr_status
pr_asc_comm(struct pr_asc *a, struct pr_error *err)
{
    char path[4096];
    struct pr_buf text;
    cJSON *doc = NULL;
    struct comm_idx ix = {a->t, NULL, 0, NULL};
    cJSON *meta = NULL, *inner = NULL;
    enum pr_status st;

    if (!pr_asc_path(a, "communication.json", path, sizeof(path)))
        return PR_OK;
    pr_buf_init(&text, 0);
    st = read_text(path, a->max, &text, err);
    a->t->bytes += text.len;
    if (st == PR_OK)
        st = pr_ascend_json_text(text.data ? text.data : "", text.len, err);
    if (st == PR_OK) {
        errno = 0; /* a failed allocation, not bad text, when ENOMEM */
        doc = cJSON_ParseWithLength(text.data ? text.data : "", text.len);
        if (doc == NULL && errno == ENOMEM)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
        else if (!cJSON_IsObject(doc))
            st = pr_error_set(err, PR_E_FORMAT, "not a JSON object");
    }
    if (st == PR_OK && index_comm(&ix) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK)
        ix.groups = read_groups(a, &meta, &inner);
    if (st == PR_OK && comm_doc(a, doc, &ix) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    cJSON_Delete(inner);
    cJSON_Delete(meta);
    cJSON_Delete(doc);
    free(ix.ev);
    pr_buf_free(&text);
    a->has_comm = st == PR_OK;
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}

/* ------------------------------------------------ communication_matrix */

/* "src-dst" as two ranks; 0 when it is not that. */
static int
link_ranks(const char *key, int32_t *src, int32_t *dst)
{
    char *end;
    long a, b;

    if (key == NULL || *key < '0' || *key > '9')
        return 0;
    a = strtol(key, &end, 10);
    if (*end != '-' || end[1] < '0' || end[1] > '9')
        return 0;
    b = strtol(end + 1, &end, 10);
    if (*end != '\0' || a > INT32_MAX || b > INT32_MAX)
        return 0;
    *src = (int32_t)a;
    *dst = (int32_t)b;
    return 1;
}

/* A number field scaled to an int64 >= 0: MB to bytes, ms to ns. */
static int
scaled(const cJSON *o, const char *key, double scale, int64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    double x;

    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0)
        return 0;
    x = v->valuedouble * scale;
    if (x > 9e18)
        return 0;
    *out = (int64_t)llround(x);
    return 1;
}

/* The links of one operation entry "<op>@<group>"; a link without its
 * transport, size or time is counted in *bad. */
static enum pr_status
add_links(struct pr_asc *a, const cJSON *op, size_t *bad)
{
    const char *at = strchr(op->string, '@');
    const cJSON *l;
    struct pr_link k;

    k.group =
        at ? pr_strtab_intern(a->t->strs, at + 1, strlen(at + 1)) : PR_STR_NONE;
    cJSON_ArrayForEach(l, op)
    {
        const char *tr = cJSON_GetStringValue(
            cJSON_GetObjectItemCaseSensitive(l, "Transport Type"));

        if (!link_ranks(l->string, &k.src, &k.dst) || tr == NULL ||
            !scaled(l, "Transit Size(MB)", 1e6, &k.bytes) ||
            !scaled(l, "Transit Time(ms)", 1e6, &k.time_ns)) {
            (*bad)++;
            continue;
        }
        k.transport = pr_strtab_intern(a->t->strs, tr, strlen(tr));
        if (k.transport == PR_STR_NONE || pr_trace_add_link(a->t, &k) != PR_OK)
            return PR_E_NOMEM;
    }
    return PR_OK;
}

/* One step's p2p or collective object: its "-total@" entries when it
 * has any, else every entry but "Total Op Info". */
static enum pr_status
add_kind(struct pr_asc *a, const cJSON *kind, size_t *bad)
{
    const cJSON *op;
    int totals = 0;
    enum pr_status st = PR_OK;

    cJSON_ArrayForEach(op, kind) totals |=
        op->string != NULL && strstr(op->string, "-total@") != NULL;
    cJSON_ArrayForEach(op, kind)
    {
        if (st != PR_OK || op->string == NULL || !cJSON_IsObject(op) ||
            strcmp(op->string, "Total Op Info") == 0 ||
            (totals && strstr(op->string, "-total@") == NULL))
            continue;
        st = add_links(a, op, bad);
    }
    return st;
}

static enum pr_status
matrix_doc(struct pr_asc *a, const cJSON *doc, size_t *bad)
{
    const cJSON *step, *kind;
    enum pr_status st = PR_OK;

    cJSON_ArrayForEach(step, doc)
    {
        cJSON_ArrayForEach(kind, step)
        {
            if (st == PR_OK && kind->string != NULL &&
                (strcmp(kind->string, "p2p") == 0 ||
                 strcmp(kind->string, "collective") == 0))
                st = add_kind(a, kind, bad);
        }
    }
    return st;
}

enum pr_status
pr_asc_matrix(struct pr_asc *a, struct pr_error *err)
{
    char path[4096];
    struct pr_buf text;
    cJSON *doc = NULL;
    size_t bad = 0;
    enum pr_status st;

    if (!pr_asc_path(a, "communication_matrix.json", path, sizeof(path)))
        return PR_OK;
    pr_buf_init(&text, 0);
    st = read_text(path, a->max, &text, err);
    a->t->bytes += text.len;
    if (st == PR_OK)
        st = pr_ascend_json_text(text.data ? text.data : "", text.len, err);
    if (st == PR_OK) {
        errno = 0; /* a failed allocation, not bad text, when ENOMEM */
        doc = cJSON_ParseWithLength(text.data ? text.data : "", text.len);
        if (doc == NULL && errno == ENOMEM)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
        else if (!cJSON_IsObject(doc))
            st = pr_error_set(err, PR_E_FORMAT, "not a JSON object");
    }
    if (st == PR_OK && matrix_doc(a, doc, &bad) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK && bad > 0 &&
        pr_trace_add_gap(a->t, "bad_links", bad,
                         "links of communication_matrix.json without a "
                         "transport, size or time were left out") != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    cJSON_Delete(doc);
    pr_buf_free(&text);
    a->has_matrix = st == PR_OK;
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}
