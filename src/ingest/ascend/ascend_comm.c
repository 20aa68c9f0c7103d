/* ascend_comm.c - communication.json (spec §2.4): per step, per HCCL
 * operation ("hcom_allReduce__483_2@<group>"), its start and the bytes
 * it moved over each link type.  trace_view.json gives each collective
 * its element count and type, so this file adds nothing there; a folder
 * without trace_view.json has its collectives only as kernel_details
 * rows, with no size, and takes their size from here: the bytes HCCL
 * transferred (Σ Transit Size over HCCS, RDMA, PCIE, SDMA, SIO), which
 * for a ring collective is larger than the message (docs/differences.md).
 * An operation is matched to the task of the same name starting within
 * 1 µs of its Start Timestamp (a double in the file).
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
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../internal.h"
#include "ascend.h"

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

/* Σ Transit Size(MB) over the link types, in bytes (MB = 10^6 here);
 * -1 when no link names a size. */
static double
transit_bytes(const cJSON *op)
{
    const cJSON *bw =
        cJSON_GetObjectItemCaseSensitive(op, "Communication Bandwidth Info");
    const cJSON *link;
    double sum = -1;

    cJSON_ArrayForEach(link, bw)
    {
        const cJSON *mb =
            cJSON_GetObjectItemCaseSensitive(link, "Transit Size(MB)");

        if (cJSON_IsNumber(mb) && isfinite(mb->valuedouble) &&
            mb->valuedouble >= 0)
            sum = (sum < 0 ? 0 : sum) + mb->valuedouble * 1e6;
    }
    return sum;
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

static void
size_op(struct pr_asc *a, const struct comm_idx *ix, const cJSON *op,
        uint32_t byte_type)
{
    const cJSON *info =
        cJSON_GetObjectItemCaseSensitive(op, "Communication Time Info");
    const cJSON *start =
        cJSON_GetObjectItemCaseSensitive(info, "Start Timestamp(us)");
    const char *at = op->string ? strchr(op->string, '@') : NULL;
    double bytes = transit_bytes(op);
    struct pr_gpu_info *g;
    int64_t ts;

    if (op->string == NULL || !cJSON_IsNumber(start) || bytes < 0 ||
        bytes > 9e18 || pr_fld_us_to_ns(start->valuedouble, &ts) != PR_FLD_OK)
        return;
    g = task_named(ix, op->string,
                   at ? (size_t)(at - op->string) : strlen(op->string), ts);
    if (g == NULL || g->in_nelems >= 0)
        return;
    g->dtype = byte_type;
    g->in_nelems = g->out_nelems = (int64_t)llround(bytes);
    a->n_sized++;
}

enum pr_status
pr_asc_comm(struct pr_asc *a, struct pr_error *err)
{
    char path[4096];
    struct pr_buf text;
    cJSON *doc = NULL;
    const cJSON *step, *kind, *op;
    uint32_t byte_type;
    struct comm_idx ix = {a->t, NULL, 0};
    enum pr_status st;

    if (a->has_tv || !pr_asc_path(a, "communication.json", path, sizeof(path)))
        return PR_OK;
    pr_buf_init(&text, 0);
    st = read_text(path, a->max, &text, err);
    if (st == PR_OK) {
        errno = 0; /* a failed allocation, not bad text, when ENOMEM */
        doc = cJSON_ParseWithLength(text.data ? text.data : "", text.len);
        if (doc == NULL && errno == ENOMEM)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
        else if (!cJSON_IsObject(doc))
            st = pr_error_set(err, PR_E_FORMAT, "not a JSON object");
    }
    byte_type = pr_strtab_intern(a->t->strs, "Byte", 4);
    if (st == PR_OK && index_comm(&ix) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st != PR_OK) {
        cJSON_Delete(doc);
        doc = NULL;
    }
    cJSON_ArrayForEach(step, doc)
    {
        cJSON_ArrayForEach(kind, step)
        {
            if (kind->string == NULL || (strcmp(kind->string, "p2p") != 0 &&
                                         strcmp(kind->string, "collective")))
                continue;
            cJSON_ArrayForEach(op, kind) size_op(a, &ix, op, byte_type);
        }
    }
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
