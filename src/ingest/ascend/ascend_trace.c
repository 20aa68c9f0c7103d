/* ascend_trace.c - torch_npu's (and MindSpore >= 2.4's) trace_view.json:
 * a Chrome event array whose processes mean what their process_name
 * metadata says (shared/spec/other-producers.md §2.2).  "Python" holds
 * the host operators, "CANN" the runtime API, "Ascend Hardware" the tasks
 * of each stream, "HCCL" the collectives; flows named torch_to_npu tie a
 * task to the operator that launched it.
 *
 * The metadata comes anywhere in the array, so events are read first
 * into plain records (struct raw) and given their meaning at the end
 * (ascend_trace_map.c).  Bytes come from the byte source, events from the
 * streaming splitter, fields through the typed getters: the Kineto
 * reader's parts, without its Kineto semantics. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../internal.h"
#include "ascend_trace.h"
#include "profreport/formats.h"

/* The reader's state while the splitter feeds it events. */
struct tv_read {
    struct pr_tv *tv;
    struct pr_buf id; /* canonical pid/tid text */
    struct pr_error *err;
};

static uint32_t
intern(struct pr_trace *t, const char *s)
{
    return pr_strtab_intern(t->strs, s, strlen(s));
}

/* A pid or tid as a string id: numbers in canonical decimal. */
static int
id_of(struct tv_read *r, const cJSON *v, uint32_t *out)
{
    if (!pr_fld_id_text(v, 0, &r->id)) {
        *out = PR_STR_NONE;
        return 0;
    }
    *out = pr_strtab_intern(r->tv->t->strs, r->id.data ? r->id.data : "",
                            r->id.len);
    return *out != PR_STR_NONE;
}

static const char *
str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int64_t
int_of(const cJSON *o, const char *key, int64_t absent)
{
    int64_t v;

    return pr_fld_int(cJSON_GetObjectItemCaseSensitive(o, key), INT64_MIN,
                      INT64_MAX, &v) == PR_FLD_OK
               ? v
               : absent;
}

/* A string member as a string id; PR_STR_NONE when absent. */
static uint32_t
sid_of(struct pr_trace *t, const cJSON *o, const char *key)
{
    const char *s = str_of(o, key);

    return s ? intern(t, s) : PR_STR_NONE;
}

static enum pr_status
oom(struct pr_error *err)
{
    return pr_error_set(err, PR_E_NOMEM, "out of memory");
}

/* The Ascend- and Kineto-specific members of an X event's args. */
static void
read_args(struct pr_trace *t, const cJSON *a, struct pr_tv_raw *x)
{
    x->task_type = sid_of(t, a, "Task Type");
    if (x->task_type == PR_STR_NONE)
        x->task_type = sid_of(t, a, "task type"); /* HCCL plane tasks */
    x->task_id = int_of(a, "Task Id", int_of(a, "task id", -1));
    x->stream = int_of(a, "Physic Stream Id",
                       int_of(a, "Stream Id", int_of(a, "stream id", -1)));
    x->conn_id = int_of(a, "connection_id", -1);
    x->dims = sid_of(t, a, "Input Dims");
    x->types = sid_of(t, a, "Input type");
    x->stack = sid_of(t, a, "Call stack");
    x->seq = int_of(a, "Sequence number", -1);
    x->fwd_tid = int_of(a, "Fwd thread id", -1);
    x->py_id = int_of(a, "Python id", -1);
    x->py_parent = int_of(a, "Python parent id", -1);
    x->py_module = int_of(a, "Python module id", -1);
    x->data_type = sid_of(t, a, "data_type");
    x->count = int_of(a, "count", -1);
    x->size_bytes = int_of(a, "size(Byte)", -1);
    x->data_bytes = int_of(a, "data size(Byte)", -1);
    x->copy_dir = sid_of(t, a, "memcpy direction");
    x->src_rank = int_of(a, "src rank", -1);
    x->dst_rank = int_of(a, "dst rank", -1);
    x->transport = sid_of(t, a, "transport type");
    x->link = sid_of(t, a, "link type");
    x->queue_corr = int_of(a, "correlation_id", -1);
}

static enum pr_status
add_x(struct tv_read *r, const cJSON *e, uint64_t index, uint64_t offset)
{
    struct pr_tv *tv = r->tv;
    struct pr_tv_raw *x;
    int64_t ts, dur;

    if (pr_fld_time_ns(cJSON_GetObjectItemCaseSensitive(e, "ts"), &ts) !=
        PR_FLD_OK) {
        tv->t->diag.skipped_bad_ts++;
        return PR_OK;
    }
    if (pr_fld_time_ns(cJSON_GetObjectItemCaseSensitive(e, "dur"), &dur) !=
        PR_FLD_OK) {
        tv->t->diag.skipped_no_dur++;
        return PR_OK;
    }
    if (dur < 0) {
        tv->t->diag.negative_dur++;
        dur = 0;
    }
    if (pr_grow((void **)&tv->raw, &tv->cap_raw, tv->n_raw + 1, sizeof(*x)))
        return oom(r->err);
    x = &tv->raw[tv->n_raw++];
    memset(x, 0, sizeof(*x));
    x->ts_ns = ts;
    x->dur_ns = dur;
    x->order = (uint32_t)index;
    x->offset = offset;
    x->name = sid_of(tv->t, e, "name");
    if (x->name == PR_STR_NONE)
        x->name = PR_STR_EMPTY;
    x->cat = sid_of(tv->t, e, "cat");
    id_of(r, cJSON_GetObjectItemCaseSensitive(e, "pid"), &x->pid);
    id_of(r, cJSON_GetObjectItemCaseSensitive(e, "tid"), &x->tid);
    read_args(tv->t, cJSON_GetObjectItemCaseSensitive(e, "args"), x);
    return PR_OK;
}

/* process_name, thread_name and process_labels metadata. */
static enum pr_status
add_meta(struct tv_read *r, const cJSON *e)
{
    struct pr_tv *tv = r->tv;
    const char *what = str_of(e, "name");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
    struct pr_tv_name *m;
    int kind;

    if (what == NULL)
        return PR_OK;
    if (strcmp(what, "process_name") == 0)
        kind = PR_TV_PROCESS;
    else if (strcmp(what, "thread_name") == 0)
        kind = PR_TV_THREAD;
    else if (strcmp(what, "process_labels") == 0)
        kind = PR_TV_LABEL;
    else
        return PR_OK;
    if (pr_grow((void **)&tv->names, &tv->cap_names, tv->n_names + 1,
                sizeof(*m)) != PR_OK)
        return oom(r->err);
    m = &tv->names[tv->n_names];
    memset(m, 0, sizeof(*m));
    m->kind = kind;
    m->text = sid_of(tv->t, args, kind == PR_TV_LABEL ? "labels" : "name");
    if (m->text == PR_STR_NONE)
        return PR_OK;
    id_of(r, cJSON_GetObjectItemCaseSensitive(e, "pid"), &m->pid);
    id_of(r, cJSON_GetObjectItemCaseSensitive(e, "tid"), &m->tid);
    tv->n_names++;
    return PR_OK;
}

static int
flow_cat(const char *cat)
{
    if (cat == NULL)
        return -1;
    if (strcmp(cat, "async_npu") == 0)
        return PR_TV_FLOW_NPU;
    if (strcmp(cat, "HostToDevice") == 0)
        return PR_TV_FLOW_H2D;
    if (strcmp(cat, "fwdbwd") == 0)
        return PR_TV_FLOW_FWDBWD;
    return -1;
}

/* The "id" member of a flow event, exactly: torch_to_npu ids are task
 * start times in ns (19 digits), beyond a double, so cJSON's value of
 * them is rounded to 256 ns and two ids could meet.  The member's text
 * is read instead; a string holding digits ("936") counts too.  torch_npu
 * writes most HostToDevice ids past 64 bits ("40065429664266452991",
 * 0x22c050000ffffffff: 374 of text_level0-2's 425); flows are matched
 * by id only, so those are kept modulo 2^64 rather than dropped (their
 * tasks lost the task queue's launch: review 11 #6). */
static int
flow_id(const char *text, size_t len, const cJSON *e, int64_t *id)
{
    const char *p = text, *end = text + len, *q;

    while ((q = memchr(p, '"', (size_t)(end - p))) != NULL) {
        p = q + 1;
        if ((size_t)(end - p) < 3 || memcmp(p, "id\"", 3) != 0)
            continue;
        for (p += 3; p < end && (*p == ' ' || *p == ':' || *p == '"'); p++)
            ;
        for (q = p; q < end && *q >= '0' && *q <= '9'; q++)
            ;
        if (!pr_fld_parse_int64(p, (size_t)(q - p), id)) {
            uint64_t u = 0;

            if (q == p || q - p > 40)
                return 0;
            for (; p < q; p++)
                u = u * 10u + (uint64_t)(*p - '0');
            memcpy(id, &u, sizeof(u));
        }
        return 1;
    }
    return pr_fld_int(cJSON_GetObjectItemCaseSensitive(e, "id"), INT64_MIN,
                      INT64_MAX, id) == PR_FLD_OK;
}

/* One end of a flow of a category we link by. */
static enum pr_status
add_flow(struct tv_read *r, const cJSON *e, const char *text, size_t len,
         char ph)
{
    struct pr_tv *tv = r->tv;
    struct pr_tv_flow *f;
    int cat = flow_cat(str_of(e, "cat"));
    int64_t id, ts;

    if (cat < 0 || !flow_id(text, len, e, &id) ||
        pr_fld_time_ns(cJSON_GetObjectItemCaseSensitive(e, "ts"), &ts) !=
            PR_FLD_OK)
        return PR_OK;
    if (pr_grow((void **)&tv->flows, &tv->cap_flows, tv->n_flows + 1,
                sizeof(*f)) != PR_OK)
        return oom(r->err);
    f = &tv->flows[tv->n_flows++];
    memset(f, 0, sizeof(*f));
    f->id = id;
    f->ts_ns = ts;
    f->ph = ph;
    f->cat = (uint8_t)cat;
    id_of(r, cJSON_GetObjectItemCaseSensitive(e, "pid"), &f->pid);
    id_of(r, cJSON_GetObjectItemCaseSensitive(e, "tid"), &f->tid);
    return PR_OK;
}

static enum pr_status
on_event(void *ctx, uint64_t index, uint64_t offset, const char *text,
         size_t len, struct pr_error *err)
{
    struct tv_read *r = ctx;
    cJSON *e;
    const char *ph;
    enum pr_status st = PR_OK;

    st = pr_json_refuse_nul(text, len, offset, index, err);
    if (st != PR_OK)
        return st;
    errno = 0; /* a failed allocation, not bad text, when ENOMEM */
    e = cJSON_ParseWithLength(text, len);
    r->tv->t->n_trace_events++;
    if (e == NULL && errno == ENOMEM)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (e == NULL)
        return pr_error_set(err, PR_E_FORMAT,
                            "byte %" PRIu64 ": event %" PRIu64
                            ": not valid JSON",
                            offset, index);
    if (!cJSON_IsObject(e)) {
        r->tv->t->diag.non_object++;
        cJSON_Delete(e);
        return PR_OK;
    }
    ph = str_of(e, "ph");
    if (ph != NULL && strcmp(ph, "X") == 0)
        st = add_x(r, e, index, offset);
    else if (ph != NULL && strcmp(ph, "M") == 0)
        st = add_meta(r, e);
    else if (ph != NULL && (strcmp(ph, "s") == 0 || strcmp(ph, "f") == 0))
        st = add_flow(r, e, text, len, ph[0]);
    cJSON_Delete(e);
    return st;
}

void
pr_tv_free(struct pr_tv *tv)
{
    if (tv == NULL)
        return;
    free(tv->raw);
    free(tv->names);
    free(tv->flows);
    memset(tv, 0, sizeof(*tv));
}

enum pr_status
pr_tv_read(const char *path, uint64_t max, struct pr_tv *tv,
           struct pr_error *err)
{
    struct tv_read r = {tv, {0}, err};
    struct pr_source *src = NULL;
    struct pr_split sp;
    const char *p;
    size_t n;
    enum pr_status st;

    pr_buf_init(&r.id, 1024);
    pr_split_init(&sp, on_event, &r);
    st = pr_source_open(path, max, 1, &src, err);
    while (st == PR_OK && (st = pr_source_next(src, &p, &n, err)) == PR_OK) {
        if (n == 0) {
            st = pr_split_finish(&sp, err);
            break;
        }
        st = pr_split_feed(&sp, p, n, err);
    }
    if (src != NULL)
        tv->t->bytes = pr_source_bytes(src);
    pr_source_close(src);
    pr_split_free(&sp);
    pr_buf_free(&r.id);
    return st;
}

/* ------------------------------------------------------------ the format */

/* A Chrome array with torch_npu's string timestamps ("ts": "1736...") or
 * its flow and process names in the first bytes. */
static enum pr_claim
sniff(const struct pr_probe *p)
{
    const char *s;
    size_t n, i;

    if (p->is_dir || pr_probe_first(p) != '[')
        return PR_CLAIM_NO;
    if (pr_probe_has(p, "\"torch_to_npu\"") ||
        pr_probe_has(p, "\"Ascend Hardware\"") ||
        pr_probe_has(p, "\"async_npu\""))
        return PR_CLAIM_SURE;
    pr_probe_text(p, &s, &n);
    for (i = 0; i + 8 < n; i++) {
        const char *q = memchr(s + i, '"', n - i);

        if (q == NULL || (size_t)(q - s) + 8 >= n)
            break;
        i = (size_t)(q - s);
        if ((memcmp(q, "\"ts\": \"", 7) == 0 && q[7] >= '0' && q[7] <= '9') ||
            (memcmp(q, "\"ts\":\"", 6) == 0 && q[6] >= '0' && q[6] <= '9'))
            return PR_CLAIM_SURE;
    }
    return PR_CLAIM_NO;
}

static enum pr_status
load(const char *path, const struct pr_read_opts *o, struct pr_trace **out,
     struct pr_error *err)
{
    struct pr_tv tv;
    enum pr_status st;

    *out = NULL;
    memset(&tv, 0, sizeof(tv));
    tv.t = pr_trace_new();
    if (tv.t == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    st = pr_tv_read(path,
                    o && o->max_input_bytes ? o->max_input_bytes
                                            : PR_READ_DEFAULT_MAX,
                    &tv, err);
    if (st == PR_OK)
        st = pr_tv_build(&tv, err);
    if (st == PR_OK) {
        tv.t->format = intern(tv.t, "ascend_trace");
        pr_trace_finish(tv.t);
        *out = tv.t;
        tv.t = NULL;
    }
    pr_trace_free(tv.t);
    pr_tv_free(&tv);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}

/* Not a streaming row: a pipe with no name to go by is Kineto's. */
const struct pr_format pr_format_ascend_trace = {"ascend_trace", sniff, load, 0,
                                                 "Ascend trace_view.json"};
