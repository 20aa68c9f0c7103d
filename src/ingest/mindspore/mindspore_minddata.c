/* mindspore_minddata.c - what MindSpore's data-pipeline files say of the
 * wait for data, read as MindSpore's own analysers read them
 * (profiler/parser/minddata_analyzer.py's MinddataProfilingAnalyzer and
 * BottleneckAnalyzer, minddata_pipeline_parser.py, MindInsight's
 * minddata_analyser.py):
 *
 *   pipeline_profiling_{r}.json  each operator's output queue, sampled:
 *       its sizes and its length (capacity), its workers, its children;
 *   minddata_pipeline_raw_{r}.csv  the same, as the parser wrote it
 *       (breadth-first from op 0; an operator without a queue left out);
 *   device_queue_profiling_{r}.txt  "type extra batch value ts" lines:
 *       type 1 is the device queue's depth (value) of capacity (extra)
 *       when a batch was sent; type 0 times;
 *   minddata_aicpu_{r}.txt (Ascend, dataset sink mode) and
 *       minddata_getnext_profiling_{r}.txt (GPU): the device's side,
 *       "GetNext... start end size" lines, one per GetNext: the batches
 *       it found waiting (MindInsight's MinddataAnalyser.
 *       analyse_get_next_info; start and end in us on Ascend, ns on GPU).
 *
 * A queue is empty in a sample of size 0 (queue_empty_freq_pct); its
 * usage is its mean size over its length (queue_utilization_pct).  The
 * files are optional: a damaged one is a data-quality note. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../internal.h"
#include "mindspore.h"

#define MAX_OPS 256

/* MindSpore's thresholds (minddata_analyzer.py's BottleneckAnalyzer,
 * MindInsight's MinddataAnalyser) */
#define LEAF_USAGE_MAX 50.0     /* _LEAF_OUTPUT_QUEUE_EMPTY_FREQ_PCT_MAXIMUM */
#define IN_QUEUE_USAGE_MAX 10.0 /* _IN_QUEUE_UTIL_PCT_MAXIMUM */
#define IN_OUT_DIFF_MAX 50.0    /* _IN_OUT_QUEUE_UTIL_PCT_DIFF_MAXIMUM */
#define WORKER_CPU_MAX 75.0     /* _AVG_CPU_UTIL_PCT_PER_WORKER_MAXIMUM */
#define WORKER_CPU_MIN 20.0     /* _AVG_CPU_UTIL_PCT_PER_WORKER_MINIMUM */
#define DQ_EMPTY_SHARE 0.7      /* DEVICE_QUEUE_EMPTY_WARNING_THRESHOLD */
/* MindSpore's own rule for a device that waits: the DeviceQueue's input
 * queue empty in more than 60% of the samples
 * (_DEVICEQUEUE_INPUT_QUEUE_EMPTY_FREQ_PCT_MAXIMUM) */
#define DQ_INPUT_EMPTY_PCT_MAX 60.0
/* This report's own floor: a queue sampled fewer times (30 ms at
 * MindSpore's default 10 ms interval) is too few samples to read; at 3,
 * "empty" needs 2 of them */
#define MIN_SAMPLES 3
/* MindInsight's analyse_queue_summary: GetNext found its queue empty
 * more than once ("the first step data ... is always empty") */
#define GN_EMPTY_MAX 1

struct mdop {
    int64_t id, child0, parent; /* -1: none */
    char type[48];              /* as written ("MapOp") */
    int32_t workers;            /* -1 unknown */
    size_t n, empty;            /* queue samples, of size 0 */
    double sum, length;         /* sizes' sum; capacity (NaN unknown) */
};

struct pipe {
    struct mdop v[MAX_OPS];
    size_t n;
    char file[96];
};

static struct mdop *
op_of(struct pipe *p, int64_t id)
{
    size_t i;

    for (i = 0; i < p->n; i++)
        if (p->v[i].id == id)
            return &p->v[i];
    return NULL;
}

static const char *
base_of(const char *path)
{
    const char *s = strrchr(path, '/');

    return s ? s + 1 : path;
}

/* "MapOp" -> "Map(id=2)": MindSpore's pipeline_ops name, its "Op" cut
 * (the analyser cuts two letters; a type written without them keeps
 * its name). */
static void
op_name(const struct mdop *o, char *out, size_t cap)
{
    size_t n = strlen(o->type);

    if (n > 2 && strcmp(o->type + n - 2, "Op") == 0)
        n -= 2;
    snprintf(out, cap, "%.*s(id=%lld)", (int)n, o->type, (long long)o->id);
}

static double
usage_pct(const struct mdop *o)
{
    return o->n > 0 && o->length > 0
               ? 100.0 * (o->sum / (double)o->n) / o->length
               : NAN;
}

static struct mdop *
new_op(struct pipe *p)
{
    struct mdop *o;

    if (p->n == MAX_OPS)
        return NULL;
    o = &p->v[p->n++];
    memset(o, 0, sizeof(*o));
    o->id = o->child0 = o->parent = -1;
    o->workers = -1;
    o->length = NAN;
    return o;
}

static int
int_of(const cJSON *v, int64_t *out)
{
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
        fabs(v->valuedouble) > 1e9)
        return 0;
    *out = (int64_t)v->valuedouble;
    return 1;
}

static int
add_size(struct mdop *o, double v)
{
    if (!isfinite(v) || v < 0)
        return 0;
    o->n++;
    o->empty += v == 0;
    o->sum += v;
    return 1;
}

static int
cmp_op(const void *a, const void *b)
{
    int64_t x = ((const struct mdop *)a)->id, y = ((const struct mdop *)b)->id;

    return (x > y) - (x < y);
}

/* By increasing id, as MindSpore's analyser lists them. */
static void
sort_ops(struct pipe *p)
{
    qsort(p->v, p->n, sizeof(p->v[0]), cmp_op);
}

/* ------------------------------------------------------------ JSON */

static const char *
json_op(struct pipe *p, const cJSON *it)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(it, "op_type");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(it, "num_workers");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(it, "metrics");
    const cJSON *q = cJSON_GetObjectItemCaseSensitive(m, "output_queue");
    const cJSON *kids = cJSON_GetObjectItemCaseSensitive(it, "children");
    const cJSON *x;
    struct mdop *o = new_op(p);
    int64_t v;

    if (o == NULL)
        return "more than 256 operators";
    if (!int_of(cJSON_GetObjectItemCaseSensitive(it, "op_id"), &o->id))
        return "an operator without an integer op_id";
    if (!cJSON_IsString(type))
        return "an operator without an op_type";
    snprintf(o->type, sizeof(o->type), "%s", type->valuestring);
    if (int_of(w, &v) && v >= 0)
        o->workers = (int32_t)v;
    if (cJSON_IsArray(kids) && int_of(cJSON_GetArrayItem(kids, 0), &v))
        o->child0 = v;
    if (q == NULL || cJSON_IsNull(q))
        return NULL;
    if (int_of(cJSON_GetObjectItemCaseSensitive(q, "length"), &v) && v > 0)
        o->length = (double)v;
    cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(q, "size"))
    {
        if (!cJSON_IsNumber(x) || !add_size(o, x->valuedouble))
            return "an output queue size that is not a count";
    }
    return NULL;
}

/* Parents from the children lists. */
static void
link_parents(struct pipe *p, const cJSON *doc)
{
    const cJSON *it, *k;

    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(doc, "op_info"))
    {
        int64_t id, c;
        struct mdop *o;

        if (!int_of(cJSON_GetObjectItemCaseSensitive(it, "op_id"), &id))
            continue;
        cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(it, "children"))
        {
            if (int_of(k, &c) && (o = op_of(p, c)) != NULL)
                o->parent = id;
        }
    }
}

static const char *
read_json(const char *path, uint64_t max, struct pipe *p)
{
    struct pr_error e;
    struct pr_buf text;
    struct pr_source *src = NULL;
    const char *why = NULL, *s;
    size_t n;
    cJSON *doc = NULL, *ops;
    const cJSON *it;
    enum pr_status st;

    pr_error_clear(&e);
    pr_buf_init(&text, 0);
    st = pr_source_open(path, max, 0, &src, &e);
    while (st == PR_OK && (st = pr_source_next(src, &s, &n, &e)) == PR_OK &&
           n > 0)
        if (pr_buf_add(&text, s, n) != PR_OK)
            st = PR_E_NOMEM;
    pr_source_close(src);
    if (st == PR_OK)
        doc = cJSON_ParseWithLength(text.data ? text.data : "", text.len);
    pr_buf_free(&text);
    if (st != PR_OK)
        return "cannot be read";
    ops = cJSON_GetObjectItemCaseSensitive(doc, "op_info");
    if (doc == NULL)
        why = "not JSON";
    else if (!cJSON_IsArray(ops) || cJSON_GetArraySize(ops) == 0)
        why = "no op_info array";
    if (why != NULL)
        ops = NULL;
    cJSON_ArrayForEach(it, ops)
    {
        if ((why = json_op(p, it)) != NULL)
            break;
    }
    if (why == NULL)
        link_parents(p, doc);
    sort_ops(p);
    cJSON_Delete(doc);
    snprintf(p->file, sizeof(p->file), "%s", base_of(path));
    return why;
}

/* ------------------------------------------------------------ CSV */

void
pr_ms_praw_init(struct pr_ms_praw *p, const char *path, uint64_t max)
{
    size_t k;

    memset(p, 0, sizeof(*p));
    p->path = path;
    p->max = max;
    for (k = 0; k < PR_MS_PRAW_COLS; k++)
        p->col[k] = -1;
    pr_error_clear(&p->err);
}

void
pr_ms_praw_free(struct pr_ms_praw *p)
{
    size_t i, k;

    for (i = 0; i < p->n; i++)
        for (k = 0; k < PR_MS_PRAW_COLS; k++)
            free(p->rows[i].f[k]);
    free(p->rows);
    p->rows = NULL;
    p->n = p->cap = 0;
}

/* The current record of csv as p's next row.  0 on out-of-memory. */
static int
praw_row(struct pr_ms_praw *p, const struct pr_csv *csv)
{
    struct pr_ms_praw_row *r;
    size_t k;

    if (pr_grow((void **)&p->rows, &p->cap, p->n + 1, sizeof(*p->rows)))
        return 0;
    r = &p->rows[p->n++];
    memset(r, 0, sizeof(*r));
    r->line = pr_csv_line(csv);
    for (k = 0; k < PR_MS_PRAW_COLS; k++) {
        /* up to a NUL byte, as the readers took the field */
        const char *f = pr_csv_field(csv, p->col[k], NULL);
        size_t len = strlen(f);

        r->f[k] = malloc(len + 1);
        if (r->f[k] == NULL)
            return 0;
        memcpy(r->f[k], f, len + 1);
    }
    return 1;
}

enum pr_status
pr_ms_praw_get(struct pr_ms_praw *p, struct pr_error *err)
{
    static const char *const names[PR_MS_PRAW_COLS] = {"op_id",
                                                       "op_type",
                                                       "num_workers",
                                                       "output_queue_size",
                                                       "output_queue_length",
                                                       "parent_id",
                                                       "children_id"};
    struct pr_csv *csv = NULL;
    int got = 1;
    size_t k;
    enum pr_status st;

    if (p->made || p->path == NULL)
        return PR_OK;
    p->made = 1;
    st = pr_csv_open(p->path, p->max, &csv, &p->err);
    if (st == PR_OK) {
        for (k = 0; k < PR_MS_PRAW_COLS; k++)
            p->col[k] = pr_ms_csv_col(csv, names[k]);
        p->head_line = pr_csv_line(csv);
        p->opened = 1;
    }
    while (st == PR_OK && (st = pr_csv_next(csv, &got, &p->err)) == PR_OK &&
           got)
        if (!praw_row(p, csv)) {
            pr_csv_close(csv);
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
        }
    if (st == PR_E_NOMEM) {
        pr_csv_close(csv);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    p->st = pr_csv_done(csv, p->path, st, &p->err);
    return PR_OK;
}

static const char *
csv_row(struct pipe *p, const struct pr_ms_praw_row *r, const int *col)
{
    struct mdop *o = new_op(p);
    const char *f;
    double v;
    char *end;

    if (o == NULL)
        return "more than 256 operators";
    if (!pr_ms_num(r->f[PR_MS_PRAW_ID], &v) || v != floor(v) || fabs(v) > 1e9)
        return "an op_id that is not an integer";
    o->id = (int64_t)v;
    snprintf(o->type, sizeof(o->type), "%s", r->f[PR_MS_PRAW_TYPE]);
    if (pr_ms_num(r->f[PR_MS_PRAW_WORKERS], &v) && v >= 0 && v < 1e6)
        o->workers = (int32_t)v;
    if (col[PR_MS_PRAW_LENGTH] >= 0 && pr_ms_num(r->f[PR_MS_PRAW_LENGTH], &v) &&
        v > 0)
        o->length = v;
    if (col[PR_MS_PRAW_PARENT] >= 0 && pr_ms_num(r->f[PR_MS_PRAW_PARENT], &v) &&
        v == floor(v))
        o->parent = (int64_t)v;
    f = col[PR_MS_PRAW_CHILDREN] >= 0 ? r->f[PR_MS_PRAW_CHILDREN] : "";
    f += strspn(f, " [");
    if (*f >= '0' && *f <= '9')
        o->child0 = strtoll(f, NULL, 10);
    /* "[10, 20, 30]": the sizes as Python wrote the list */
    f = r->f[PR_MS_PRAW_SIZES];
    f += strspn(f, " ");
    if (*f == '\0')
        return NULL;
    if (*f++ != '[')
        return "an output_queue_size that is not a list";
    for (;;) {
        f += strspn(f, " ,");
        if (*f == ']')
            return NULL;
        v = strtod(f, &end);
        if (end == f || !add_size(o, v))
            return "an output_queue_size that is not a list of counts";
        f = end;
    }
}

/* The queues of minddata_pipeline_raw (read, pr_ms_praw_get) into p: why
 * not (a gap's words), NULL when read. */
static const char *
read_csv(const struct pr_ms_praw *raw, struct pipe *p)
{
    const int *col = raw->col;
    size_t i;
    const char *why = NULL;

    if (raw->opened &&
        (col[PR_MS_PRAW_ID] < 0 || col[PR_MS_PRAW_TYPE] < 0 ||
         col[PR_MS_PRAW_WORKERS] < 0 || col[PR_MS_PRAW_SIZES] < 0))
        why = "no column op_id, op_type, num_workers or output_queue_size";
    for (i = 0; why == NULL && i < raw->n; i++)
        why = csv_row(p, &raw->rows[i], col);
    sort_ops(p);
    snprintf(p->file, sizeof(p->file), "%s", base_of(raw->path));
    return why ? why : raw->st != PR_OK ? "cannot be read as CSV" : NULL;
}

/* ------------------------------------------------------------ device queue */

static const char *
read_dq(const char *path, struct pr_minddata *m)
{
    FILE *fp = fopen(path, "r");
    char line[256];
    long long f[5];

    if (fp == NULL)
        return "cannot be opened";
    m->dq_records = m->dq_batches = m->dq_empty = m->dq_full = 0;
    m->dq_first_empty = 0;
    while (fgets(line, sizeof(line), fp) != NULL) {
        int k = sscanf(line, "%lld %lld %lld %lld %lld", &f[0], &f[1], &f[2],
                       &f[3], &f[4]);

        if (k <= 0)
            continue;
        if (k < 4) {
            fclose(fp);
            return "a line that is not \"type extra batch value ...\"";
        }
        if (f[0] != 1)
            continue; /* a time record */
        m->dq_records++;
        if (f[2] < 2) { /* the first batch, as MinddataProfilingAnalyzer */
            m->dq_first_empty += f[3] == 0;
            continue;
        }
        m->dq_batches++;
        m->dq_empty += f[3] == 0;
        m->dq_full += f[3] == f[1];
    }
    fclose(fp);
    return NULL;
}

/* ------------------------------------------------------------ GetNext */

/* Appends sep and s to buf (cap bytes), cut where it is full. */
static void
cat(char *buf, size_t cap, const char *sep, const char *s)
{
    size_t n = strlen(buf);

    if (n < cap)
        snprintf(buf + n, cap - n, "%s%s", sep, s);
}

/* "GetNext_dequeue_wait start end size" (Ascend, us) or "GetNext ..."
 * (GPU, ns), as MindInsight's analyse_get_next_info reads them: each
 * line whose first word starts "GetNext" is one dequeue, of size 0 an
 * empty one; the first sizes go into sizes ("3, 2, 1"). */
static const char *
read_gn(const char *path, int ns, struct pr_minddata *m, char *sizes,
        size_t cap)
{
    FILE *fp = fopen(path, "r");
    char line[512], word[64];
    double a, b, sum = 0;
    long long q;
    size_t timed = 0;

    if (fp == NULL)
        return "cannot be opened";
    m->gn_records = m->gn_empty = 0;
    sizes[0] = '\0';
    while (fgets(line, sizeof(line), fp) != NULL) {
        int k = sscanf(line, "%63s %lf %lf %lld", word, &a, &b, &q);

        if (k <= 0 || strncmp(word, "GetNext", 7) != 0)
            continue;
        if (k < 4 || q < 0 || !isfinite(a) || !isfinite(b)) {
            fclose(fp);
            return "a GetNext line that is not \"name start end size\"";
        }
        if (m->gn_records < 8) {
            char one[32];

            snprintf(one, sizeof(one), "%s%lld", m->gn_records ? ", " : "", q);
            cat(sizes, cap, "", one);
        } else if (m->gn_records == 8)
            cat(sizes, cap, "", ", ...");
        m->gn_records++;
        m->gn_empty += q == 0;
        if (b >= a) {
            sum += (b - a) / (ns ? 1000.0 : 1.0);
            timed++;
        }
    }
    fclose(fp);
    m->gn_wait_us = timed > 0 ? sum / (double)timed : NAN;
    return NULL;
}

/* ------------------------------------------------------------ reading */

/* The sampled queue nearest the root: from the operator nobody names as
 * a child, down its first children past those without a queue (the
 * analyser's non-inline child). */
static const struct mdop *
feeding(struct pipe *p)
{
    const struct mdop *o = NULL;
    size_t i, hops = 0;

    for (i = 0; i < p->n && o == NULL; i++)
        if (p->v[i].parent < 0)
            o = &p->v[i];
    while (o != NULL && o->n == 0 && hops++ < MAX_OPS)
        o = o->child0 >= 0 ? op_of(p, o->child0) : NULL;
    return o != NULL && o->n > 0 ? o : NULL;
}

static const struct mdop *
least_leaf(struct pipe *p)
{
    const struct mdop *best = NULL;
    size_t i;

    for (i = 0; i < p->n; i++) {
        const struct mdop *o = &p->v[i];
        double u = usage_pct(o);

        if (o->child0 < 0 && u < LEAF_USAGE_MAX &&
            (best == NULL || u < usage_pct(best)))
            best = o;
    }
    return best;
}

/* The host queues' word: "empty" (the device waits) only by MindSpore's
 * own rule, over 60% of the samples empty; NULL with too few samples to
 * read. */
static const char *
queue_word(const struct mdop *fd)
{
    if (fd->n < MIN_SAMPLES)
        return NULL;
    if (100.0 * (double)fd->empty / (double)fd->n > DQ_INPUT_EMPTY_PCT_MAX)
        return "empty";
    return fd->empty == 0 ? "ready" : "mixed";
}

static int
is_word(const char *w, const char *s)
{
    return w != NULL && strcmp(w, s) == 0;
}

/* The operator between the sampled queue and the device whose own queue
 * is not sampled ("Batch(id=0)"), past EpochCtrl, which MindSpore adds
 * over a pipeline for its epochs; NULL: none. */
static const struct mdop *
unsampled_root(struct pipe *p, const struct mdop *fd)
{
    const struct mdop *o = fd->parent >= 0 ? op_of(p, fd->parent) : NULL;

    if (o != NULL && o->n == 0 && strncmp(o->type, "EpochCtrl", 9) != 0)
        return o;
    return NULL;
}

/* dev: the device's GetNext file speaks for the device's wait, so the
 * host queues' sentence stops at the host. */
static void
reading_of(struct pipe *p, int dev, char *out, size_t cap)
{
    const struct mdop *fd = feeding(p), *lf = least_leaf(p), *rt;
    const char *w;
    char nm[64], list[400] = "", where[240];
    size_t i, n_empty = 0;

    for (i = 0; i < p->n; i++)
        if (p->v[i].n > 0 && p->v[i].empty == p->v[i].n && &p->v[i] != fd) {
            op_name(&p->v[i], nm, sizeof(nm));
            cat(list, sizeof(list), n_empty++ ? ", " : "", nm);
        }
    if (fd == NULL) {
        snprintf(out, cap, "%s samples no operator's output queue", p->file);
        return;
    }
    w = queue_word(fd);
    rt = unsampled_root(p, fd);
    op_name(fd, nm, sizeof(nm));
    if (rt != NULL) {
        char r[64];

        op_name(rt, r, sizeof(r));
        snprintf(where, sizeof(where),
                 "the nearest sampled queue to the device, %s's (%s's is not "
                 "sampled)",
                 nm, r);
    } else
        snprintf(where, sizeof(where), "the queue nearest the device, %s's",
                 nm);
    if (fd->empty == 0)
        snprintf(out, cap,
                 "%s: %s, was %.0f%% used on average and never empty in its "
                 "%zu samples",
                 p->file, where, usage_pct(fd), fd->n);
    else
        snprintf(out, cap,
                 "%s: %s, was %.1f%% used on average and empty in %.0f%% of "
                 "its %zu samples",
                 p->file, where, usage_pct(fd),
                 100.0 * (double)fd->empty / (double)fd->n, fd->n);
    if (n_empty > 0) {
        cat(out, cap, "", n_empty > 1 ? "; " : "; the queue of ");
        cat(out, cap, "", list);
        cat(out, cap, "",
            n_empty > 1 ? " were empty in every sample"
                        : " was empty in every sample");
    }
    if (w == NULL) {
        snprintf(list, sizeof(list),
                 ": %zu sample%s %s too few to read (this report reads a "
                 "queue from %d samples on), so the host queues show "
                 "nothing of the wait",
                 fd->n, fd->n == 1 ? "" : "s", fd->n == 1 ? "is" : "are",
                 MIN_SAMPLES);
        cat(out, cap, "", list);
    } else if (is_word(w, "empty")) {
        snprintf(list, sizeof(list),
                 ": over MindSpore's %.0f%% for the device queue's input, "
                 "the pipeline made no batch ahead of training%s",
                 DQ_INPUT_EMPTY_PCT_MAX,
                 dev ? "" : ", so the device waits on the data pipeline");
        cat(out, cap, "", list);
    } else if (is_word(w, "ready"))
        cat(out, cap, "",
            dev ? ": the host queues held a batch in every sample"
                : ": a batch was ready in every sample, so the pipeline kept "
                  "ahead of training");
    else {
        snprintf(list, sizeof(list),
                 ": the pipeline fell behind at times, within MindSpore's "
                 "%.0f%% for a device that waits",
                 DQ_INPUT_EMPTY_PCT_MAX);
        cat(out, cap, "", list);
    }
    if (lf != NULL && lf->workers > 0 && !is_word(w, "ready")) {
        op_name(lf, nm, sizeof(nm));
        snprintf(list, sizeof(list),
                 "; MindSpore's advice for a leaf operator using under "
                 "%.0f%% of its output queue (its rule, not a measured "
                 "wait): %s (%.0f%%, %d workers), num_parallel_workers above "
                 "%d might speed up its I/O",
                 LEAF_USAGE_MAX, nm, usage_pct(lf), (int)lf->workers,
                 (int)lf->workers);
        cat(out, cap, "", list);
    }
}

/* Operators of the CSV the JSON does not hold as the same type: the
 * first, as "op 1: MapOp against Shuffle"; "" when they agree. */
static void
disagreement(struct pipe *js, struct pipe *cs, char *out, size_t cap)
{
    char a[64], b[64];
    size_t i;

    out[0] = '\0';
    for (i = 0; i < cs->n; i++) {
        const struct mdop *o = op_of(js, cs->v[i].id);

        if (o == NULL) {
            snprintf(out, cap, "op %lld (%s) is not in %s",
                     (long long)cs->v[i].id, cs->v[i].type, js->file);
            return;
        }
        op_name(o, a, sizeof(a));
        op_name(&cs->v[i], b, sizeof(b));
        if (strcmp(a, b) != 0) {
            snprintf(out, cap, "op %lld is %s in one and %s in the other",
                     (long long)o->id, o->type, cs->v[i].type);
            return;
        }
    }
}

/* MinddataProfilingAnalyzer's bottleneck: it runs only when the CPU file holds
 * every pipeline operator; from the highest id down, an operator whose
 * workers are each over 75% of a core wants more workers, one under 20%
 * with a starved or lagging input queue wants a larger prefetch_size;
 * the last found (the lowest id) is named. */
static void
bottleneck(struct pr_trace *t, struct pipe *p, struct pr_minddata *m)
{
    static const char *const single[] = {"Barrier", "Concat", "EpochCtrl",
                                         "Rename",  "Repeat", "Shuffle",
                                         "Skip",    "Take",   "Zip"};
    const struct pr_cpu_use *u = t->cpu_use;
    size_t i, j, k, cov = 0;
    char text[400] = "", nm[64], base[48];
    const char *who = NULL;

    for (i = 0; u != NULL && i < u->n_series; i++)
        cov += u->series[i].scope == PR_CPU_OP && u->series[i].op_id >= 0;
    if (u == NULL) {
        snprintf(text, sizeof(text),
                 "MindSpore's MinddataProfilingAnalyzer names no bottleneck "
                 "operator "
                 "here: it needs every operator's CPU use, and the run has "
                 "no minddata_cpu_utilization file");
        m->bottleneck_note = pr_strtab_intern(t->strs, text, strlen(text));
        return;
    }
    if (cov != p->n) {
        snprintf(text, sizeof(text),
                 "MindSpore's MinddataProfilingAnalyzer names no bottleneck "
                 "operator "
                 "here: it needs every operator's CPU use, and "
                 "minddata_cpu_utilization holds %zu of the pipeline's %zu",
                 cov, p->n);
        m->bottleneck_note = pr_strtab_intern(t->strs, text, strlen(text));
        return;
    }
    for (k = p->n; k-- > 0;) {
        const struct mdop *o = &p->v[k], *in = NULL;
        const struct pr_cpu_series *s = NULL;
        double cpu = 0, per;
        size_t n = 0, len = strlen(o->type);
        int skip = 0;

        if (len > 2 && strcmp(o->type + len - 2, "Op") == 0)
            len -= 2;
        snprintf(base, sizeof(base), "%.*s", (int)len, o->type);
        for (j = 0; j < sizeof(single) / sizeof(single[0]); j++)
            skip |= strcmp(base, single[j]) == 0;
        if (skip || strcmp(base, "DeviceQueue") == 0 || o->workers <= 0)
            continue;
        for (i = 0; i < u->n_series; i++)
            if (u->series[i].scope == PR_CPU_OP && u->series[i].op_id == o->id)
                s = &u->series[i];
        for (i = 0; s != NULL && i < s->n; i++)
            if (!isnan(s->user[i]) && !isnan(s->sys[i])) {
                cpu += s->user[i] + s->sys[i];
                n++;
            }
        if (n == 0)
            continue;
        per = cpu / (double)n / o->workers;
        for (in = o, j = 0; in != NULL && in->child0 >= 0 && j < MAX_OPS;
             j++) { /* bounded: a file's children may loop */
            in = op_of(p, in->child0);
            if (in != NULL && in->n > 0)
                break;
        }
        if (in == o || (in != NULL && in->n == 0))
            in = NULL;
        op_name(o, nm, sizeof(nm));
        if (per > WORKER_CPU_MAX) {
            snprintf(
                text, sizeof(text),
                "%s has high CPU utilization per worker of %.0f%%: try "
                "num_parallel_workers above %d (MinddataProfilingAnalyzer)",
                nm, per, (int)o->workers);
            who = "";
        } else if (per < WORKER_CPU_MIN && in != NULL &&
                   (usage_pct(in) < IN_QUEUE_USAGE_MAX ||
                    usage_pct(o) - usage_pct(in) > IN_OUT_DIFF_MAX)) {
            snprintf(text, sizeof(text),
                     "%s has low CPU utilization per worker of %.0f%% and "
                     "abnormal queue usage: try a larger prefetch_size "
                     "(MinddataProfilingAnalyzer)",
                     nm, per);
            who = "";
        }
        if (who != NULL) {
            m->bottleneck = pr_strtab_intern(t->strs, nm, strlen(nm));
            m->bottleneck_note = pr_strtab_intern(t->strs, text, strlen(text));
            who = NULL;
        }
    }
    if (m->bottleneck == PR_STR_NONE) {
        snprintf(text, sizeof(text),
                 "MindSpore's MinddataProfilingAnalyzer finds no bottleneck "
                 "operator: "
                 "no operator's workers are each over %.0f%% of a core, and "
                 "none under %.0f%% has a starved or lagging input queue",
                 WORKER_CPU_MAX, WORKER_CPU_MIN);
        m->bottleneck_note = pr_strtab_intern(t->strs, text, strlen(text));
    }
}

/* The device queue's depth per batch past the first (MindSpore's
 * MinddataProfilingAnalyzer skips the first): empty in over 70% of them,
 * MindInsight's warning; it sets the word when it has batches and no
 * GetNext file speaks, being the queue the device reads. */
static void
dq_reading(struct pr_trace *t, struct pr_minddata *m,
           const struct pr_ms_file *dq, char *out, size_t cap)
{
    char s[600];
    const char *w;

    if (dq == NULL || m->dq_records < 0)
        return;
    if (m->dq_batches == 0) {
        snprintf(s, sizeof(s),
                 "; %s records the device queue's depth at %lld batch%s, "
                 "none past the first, which MindSpore's "
                 "MinddataProfilingAnalyzer leaves out (a queue starts "
                 "empty)",
                 base_of(dq->path), (long long)m->dq_records,
                 m->dq_records == 1 ? "" : "es");
        cat(out, cap, "", s);
        if (m->dq_first_empty > 0) {
            snprintf(s, sizeof(s),
                     "; MindInsight's MinddataAnalyser counts it, empty at "
                     "%lld of %lld, and %s",
                     (long long)m->dq_first_empty, (long long)m->dq_records,
                     m->gn_records >= 0
                         ? "reads it with the GetNext file below"
                         : "would mark data_process \"warning\" on "
                           "that alone (over its 70%)");
            cat(out, cap, "", s);
        }
        return;
    }
    w = (double)m->dq_empty > DQ_EMPTY_SHARE * (double)m->dq_batches ? "empty"
        : m->dq_empty == 0                                           ? "ready"
                                                                     : "mixed";
    snprintf(s, sizeof(s),
             "; the device queue (%s) was empty at %lld and full at %lld of "
             "%lld batches past the first%s",
             base_of(dq->path), (long long)m->dq_empty, (long long)m->dq_full,
             (long long)m->dq_batches,
             strcmp(w, "empty") == 0
                 ? ": over MindInsight's 70%, the device waited for data"
                 : "");
    cat(out, cap, "", s);
    m->queues = pr_strtab_intern(t->strs, w, strlen(w));
}

/* The device's own side, where the run has it: the batches each GetNext
 * found waiting decide whether the device waited (MindInsight's
 * analyse_queue_summary flags GetNext finding none more than once); it
 * sets the word last. */
static void
gn_reading(struct pr_trace *t, struct pr_minddata *m, const char *file,
           const char *sizes, char *out, size_t cap)
{
    char s[600], wait[64] = "";
    const char *w;

    if (m->gn_records < 0)
        return;
    if (m->gn_records == 0) {
        snprintf(s, sizeof(s), "; %s holds no GetNext line", file);
        cat(out, cap, "", s);
        return;
    }
    if (!isnan(m->gn_wait_us))
        snprintf(wait, sizeof(wait), ", each taking %.1f us on average",
                 m->gn_wait_us);
    w = m->gn_empty <= GN_EMPTY_MAX ? "ready"
        : 100.0 * (double)m->gn_empty / (double)m->gn_records >
                DQ_INPUT_EMPTY_PCT_MAX
            ? "empty"
            : "mixed";
    snprintf(s, sizeof(s),
             "; the device's side, %s: its %lld GetNext found %s batch%s "
             "waiting, empty at %lld%s: %s",
             file, (long long)m->gn_records, sizes,
             m->gn_records == 1 && strcmp(sizes, "1") == 0 ? "" : "es",
             (long long)m->gn_empty, wait,
             strcmp(w, "ready") == 0
                 ? "the pipeline kept ahead of the device (MindInsight's "
                   "MinddataAnalyser marks data_process normal: it flags it "
                   "only when GetNext finds no batch more than once)"
             : strcmp(w, "empty") == 0
                 ? "the device waited for data at most of its GetNext"
                 : "the device waited for data at some of its GetNext");
    cat(out, cap, "", s);
    if (strcmp(w, "ready") != 0 && m->queues != PR_STR_NONE &&
        strcmp(pr_trace_str(t, m->queues), "ready") == 0)
        cat(out, cap, "",
            ", while the host queues held batches: the wait is in sending "
            "them to the device (MindInsight's data_transmission)");
    m->queues = pr_strtab_intern(t->strs, w, strlen(w));
}

static enum pr_status
gap(struct pr_trace *t, const char *file, const char *why)
{
    char text[300];

    snprintf(text, sizeof(text),
             "%s: %s; this optional data-pipeline file is not read", file, why);
    return pr_trace_add_gap(t, "minddata_damaged", 1, text);
}

static const char *
dir_file(const char *dir_of, const char *stem, int64_t rank, char *out,
         size_t cap)
{
    const char *s = strrchr(dir_of, '/');
    int d = s ? (int)(s - dir_of) + 1 : 0;
    FILE *fp;

    snprintf(out, cap, "%.*s", d, dir_of);
    snprintf(out + strlen(out), cap - strlen(out), "%s_%lld.%s", stem,
             (long long)rank,
             strcmp(stem, "pipeline_profiling") == 0 ? "json" : "txt");
    fp = fopen(out, "r");
    if (fp == NULL)
        return NULL;
    fclose(fp);
    return out;
}

enum pr_status
pr_ms_minddata_read(const struct pr_ms_unit *u, struct pr_ms_praw *pipe,
                    uint64_t max, struct pr_trace *t, struct pr_error *err)
{
    const struct pr_ms_file *any = NULL, *raw = u->by_kind[PR_MS_MINDDATA];
    const struct pr_ms_file *dq = u->by_kind[PR_MS_DEVICE_QUEUE];
    struct pipe *js = NULL, *cs = NULL, *use = NULL;
    struct pr_minddata *m;
    char jpath[1200], gpath[1200], text[2400], why_not[300], sizes[96];
    const char *jp = NULL, *gp = NULL, *why;
    int gn_ns = 0;
    int pipe_files = raw || dq || u->by_kind[PR_MS_CPU_UTIL];
    size_t k;

    sizes[0] = '\0';

    for (k = 0; k < PR_MS_KIND_COUNT && any == NULL; k++)
        any = u->by_kind[k];
    if (any == NULL || u->rank < 0 || (!pipe_files && u->family != 1))
        return PR_OK;
    jp = dir_file(any->path, "pipeline_profiling", u->rank, jpath,
                  sizeof(jpath));
    gp = dir_file(any->path, "minddata_aicpu", u->rank, gpath, sizeof(gpath));
    if (gp == NULL) {
        gp = dir_file(any->path, "minddata_getnext_profiling", u->rank, gpath,
                      sizeof(gpath));
        gn_ns = gp != NULL;
    }
    if (jp == NULL && raw == NULL && dq == NULL && gp == NULL)
        return PR_OK;
    m = calloc(1, sizeof(*m));
    js = jp ? calloc(1, sizeof(*js)) : NULL;
    cs = raw ? calloc(1, sizeof(*cs)) : NULL;
    if (m == NULL || (jp && js == NULL) || (raw && cs == NULL)) {
        free(m);
        free(js);
        free(cs);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    m->source = m->ops = m->feeding = m->empty_ops = m->leaf = m->queues =
        m->reading = m->conflict = m->bottleneck = m->bottleneck_note =
            PR_STR_NONE;
    m->feeding_usage_pct = m->feeding_empty_pct = m->leaf_usage_pct = NAN;
    m->leaf_workers = -1;
    m->dq_records = m->dq_batches = m->dq_empty = m->dq_full = -1;
    m->dq_first_empty = 0;
    m->gn_records = m->gn_empty = -1;
    m->gn_wait_us = NAN;
    if (gp && (why = read_gn(gp, gn_ns, m, sizes, sizeof(sizes))) != NULL) {
        m->gn_records = m->gn_empty = -1;
        if (gap(t, base_of(gp), why) != PR_OK)
            goto nomem;
    }
    if (js && (why = read_json(jp, max, js)) != NULL) {
        if (gap(t, base_of(jp), why) != PR_OK)
            goto nomem;
        free(js);
        js = NULL;
    }
    if (cs && pr_ms_praw_get(pipe, err) != PR_OK)
        goto nomem_set;
    if (cs && (why = read_csv(pipe, cs)) != NULL) {
        if (gap(t, base_of(raw->path), why) != PR_OK)
            goto nomem;
        free(cs);
        cs = NULL;
    }
    if (dq && (why = read_dq(dq->path, m)) != NULL) {
        m->dq_records = m->dq_batches = m->dq_empty = m->dq_full = -1;
        if (gap(t, base_of(dq->path), why) != PR_OK)
            goto nomem;
    }
    use = js ? js : cs;
    why_not[0] = '\0';
    if (js && cs)
        disagreement(js, cs, why_not, sizeof(why_not));
    if (why_not[0]) {
        char a[900], b[900];

        reading_of(js, m->gn_records >= 0, a, sizeof(a));
        reading_of(cs, m->gn_records >= 0, b, sizeof(b));
        snprintf(text, sizeof(text), "%s and %s", js->file, cs->file);
        m->source = pr_strtab_intern(t->strs, text, strlen(text));
        snprintf(text, sizeof(text),
                 "%s and %s describe two different pipelines (%s), so no "
                 "reading is made of them: by the first, %s; by the second, "
                 "%s",
                 js->file, cs->file, why_not, a + strlen(js->file) + 2,
                 b + strlen(cs->file) + 2);
        dq_reading(t, m, dq, text, sizeof(text));
        gn_reading(t, m, gp ? base_of(gp) : "", sizes, text, sizeof(text));
        m->conflict = pr_strtab_intern(t->strs, text, strlen(text));
        use = NULL;
    }
    if (use != NULL) {
        const struct mdop *fd = feeding(use), *lf = least_leaf(use);
        char nm[64];

        m->source = pr_strtab_intern(t->strs, use->file, strlen(use->file));
        text[0] = '\0';
        for (k = 0; k < use->n; k++) {
            op_name(&use->v[k], nm, sizeof(nm));
            cat(text, sizeof(text), k ? ", " : "", nm);
        }
        m->ops = pr_strtab_intern(t->strs, text, strlen(text));
        if (fd != NULL) {
            op_name(fd, nm, sizeof(nm));
            m->feeding = pr_strtab_intern(t->strs, nm, strlen(nm));
            m->feeding_usage_pct = usage_pct(fd);
            m->feeding_empty_pct = 100.0 * (double)fd->empty / (double)fd->n;
            m->feeding_samples = fd->n;
            if (queue_word(fd) != NULL)
                m->queues = pr_strtab_intern(t->strs, queue_word(fd),
                                             strlen(queue_word(fd)));
        }
        text[0] = '\0';
        for (k = 0; k < use->n; k++)
            if (use->v[k].n > 0 && use->v[k].empty == use->v[k].n) {
                op_name(&use->v[k], nm, sizeof(nm));
                cat(text, sizeof(text), text[0] ? ", " : "", nm);
            }
        if (text[0])
            m->empty_ops = pr_strtab_intern(t->strs, text, strlen(text));
        if (lf != NULL) {
            op_name(lf, nm, sizeof(nm));
            m->leaf = pr_strtab_intern(t->strs, nm, strlen(nm));
            m->leaf_usage_pct = usage_pct(lf);
            m->leaf_workers = lf->workers;
        }
        reading_of(use, m->gn_records >= 0, text, sizeof(text));
        dq_reading(t, m, dq, text, sizeof(text));
        gn_reading(t, m, gp ? base_of(gp) : "", sizes, text, sizeof(text));
        m->reading = pr_strtab_intern(t->strs, text, strlen(text));
        bottleneck(t, use, m);
    } else if (m->conflict == PR_STR_NONE &&
               (m->dq_records >= 0 || m->gn_records >= 0)) {
        /* the device's files without a pipeline file */
        const char *f =
            gp && m->gn_records >= 0 ? base_of(gp) : base_of(dq->path);

        m->source = pr_strtab_intern(t->strs, f, strlen(f));
        text[0] = '\0';
        dq_reading(t, m, dq, text, sizeof(text));
        gn_reading(t, m, gp ? base_of(gp) : "", sizes, text, sizeof(text));
        if (text[0])
            m->reading = pr_strtab_intern(t->strs, text + 2, strlen(text + 2));
    }
    free(js);
    free(cs);
    if (m->source == PR_STR_NONE && m->dq_records < 0 && m->gn_records < 0)
        free(m); /* every file damaged: the gaps say so */
    else
        t->minddata = m;
    return PR_OK;
nomem:
    pr_error_set(err, PR_E_NOMEM, "out of memory");
nomem_set:
    free(m);
    free(js);
    free(cs);
    return PR_E_NOMEM;
}
