/* mindspore_cpu.c - the host CPU use MindSpore's data-pipeline sampler
 * wrote while the run went (minddata_cpu_utilization_{r}.json, from
 * ccsrc/minddata/dataset/engine/perf/cpu_sampler.cc; cpu_sampling.cc
 * before 1.6): the machine's user / sys / io / idle share of all its
 * CPUs, the process's and each pipeline operator's user / sys share of
 * one core (the writer scales a thread's share of the machine by the CPU
 * count), one value per sample.  The pipeline's own table
 * (minddata_pipeline_raw_{r}.csv) names each operator's type and
 * workers.  Both files are the same for a GPU and an Ascend run. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../internal.h"
#include "mindspore.h"

#define MAX_SERIES 4096 /* pipeline operators of one run */

static double
value_at(const cJSON *arr, size_t i)
{
    const cJSON *v = cJSON_GetArrayItem(arr, (int)i);

    return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

/* One metric of a series: an array of numbers in the JSON (absent: NaN
 * throughout). */
static enum pr_status
metric(const cJSON *obj, const char *key, const char *where, size_t n,
       double **out, struct pr_error *err)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key);
    size_t i;

    if (arr != NULL && !cJSON_IsArray(arr))
        return pr_error_set(err, PR_E_FORMAT, "%s.%s is not an array", where,
                            key);
    *out = malloc((n ? n : 1) * sizeof(**out));
    if (*out == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < n; i++)
        (*out)[i] = value_at(arr, i);
    return PR_OK;
}

static size_t
len_of(const cJSON *obj, const char *key)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);

    return cJSON_IsArray(a) ? (size_t)cJSON_GetArraySize(a) : 0;
}

/* A series from an object holding its metric arrays; its sample count is
 * the longest array's. */
static enum pr_status
add_series(struct pr_cpu_use *u, enum pr_cpu_scope scope, int64_t op_id,
           const cJSON *obj, const char *where, struct pr_error *err)
{
    struct pr_cpu_series *s;
    size_t n = len_of(obj, "user_utilization"), m, cap = u->n_series;
    enum pr_status st;

    if (!cJSON_IsObject(obj))
        return pr_error_set(err, PR_E_FORMAT, "%s is not an object", where);
    if ((m = len_of(obj, "sys_utilization")) > n)
        n = m;
    if (scope == PR_CPU_MACHINE && (m = len_of(obj, "io_utilization")) > n)
        n = m;
    if (u->n_series == MAX_SERIES)
        return pr_error_set(err, PR_E_LIMIT, "more than %d CPU series",
                            MAX_SERIES);
    if (pr_grow((void **)&u->series, &cap, u->n_series + 1,
                sizeof(*u->series)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    s = &u->series[u->n_series++];
    memset(s, 0, sizeof(*s));
    s->scope = (uint8_t)scope;
    s->op_id = op_id;
    s->op_type = PR_STR_NONE;
    s->workers = -1;
    s->n = n;
    st = metric(obj, "user_utilization", where, n, &s->user, err);
    if (st == PR_OK)
        st = metric(obj, "sys_utilization", where, n, &s->sys, err);
    if (st == PR_OK && scope == PR_CPU_MACHINE)
        st = metric(obj, "io_utilization", where, n, &s->io, err);
    if (st == PR_OK && scope == PR_CPU_MACHINE)
        st = metric(obj, "idle_utilization", where, n, &s->idle, err);
    return st;
}

static enum pr_status
add_ops(struct pr_cpu_use *u, const cJSON *ops, struct pr_error *err)
{
    const cJSON *op;
    enum pr_status st = PR_OK;
    char where[48];
    int i = 0;

    if (ops != NULL && !cJSON_IsArray(ops))
        return pr_error_set(err, PR_E_FORMAT, "op_info is not an array");
    cJSON_ArrayForEach(op, ops)
    {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(op, "op_id");

        snprintf(where, sizeof(where), "op_info[%d]", i++);
        if (!cJSON_IsNumber(id) || id->valuedouble != floor(id->valuedouble) ||
            fabs(id->valuedouble) > 1e9)
            return pr_error_set(err, PR_E_FORMAT, "%s.op_id is not an integer",
                                where);
        snprintf(where, sizeof(where), "op_info[%d].metrics", i - 1);
        st = add_series(u, PR_CPU_OP, (int64_t)id->valuedouble,
                        cJSON_GetObjectItemCaseSensitive(op, "metrics"), where,
                        err);
        if (st != PR_OK)
            break;
    }
    return st;
}

static int32_t
int_item(const cJSON *doc, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, key);

    return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble < 1e9
               ? (int32_t)v->valuedouble
               : -1;
}

static enum pr_status
from_doc(const cJSON *doc, struct pr_cpu_use *u, struct pr_error *err)
{
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(doc, "device_info");
    const cJSON *proc = cJSON_GetObjectItemCaseSensitive(doc, "process_info");
    enum pr_status st = PR_OK;

    if (!cJSON_IsObject(doc))
        return pr_error_set(err, PR_E_FORMAT, "not a JSON object");
    u->interval_ms = int_item(doc, "sampling_interval");
    u->cpus = int_item(doc, "cpu_processor_num");
    if (dev != NULL)
        st = add_series(u, PR_CPU_MACHINE, -1, dev, "device_info", err);
    if (st == PR_OK && proc != NULL)
        st = add_series(u, PR_CPU_PROCESS, -1, proc, "process_info", err);
    if (st == PR_OK)
        st = add_ops(u, cJSON_GetObjectItemCaseSensitive(doc, "op_info"), err);
    return st;
}

static enum pr_status
read_json(const char *path, uint64_t max, cJSON **doc, struct pr_error *err)
{
    struct pr_source *src = NULL;
    struct pr_buf text;
    const char *p;
    size_t n;
    enum pr_status st = pr_source_open(path, max, 0, &src, err);

    *doc = NULL;
    pr_buf_init(&text, 0);
    while (st == PR_OK && (st = pr_source_next(src, &p, &n, err)) == PR_OK &&
           n > 0)
        if (pr_buf_add(&text, p, n) != PR_OK)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    pr_source_close(src);
    if (st == PR_OK) {
        errno = 0; /* a failed allocation, not bad text, when ENOMEM */
        *doc = cJSON_ParseWithLength(text.data ? text.data : "", text.len);
        if (*doc == NULL && errno == ENOMEM)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
        else if (*doc == NULL)
            st = pr_error_set(err, PR_E_FORMAT, "not JSON");
    }
    pr_buf_free(&text);
    return st;
}

/* ------------------------------------------------------------ pipeline */

static struct pr_cpu_series *
op_series(struct pr_cpu_use *u, int64_t id)
{
    size_t i;

    for (i = 0; i < u->n_series; i++)
        if (u->series[i].scope == PR_CPU_OP && u->series[i].op_id == id)
            return &u->series[i];
    return NULL;
}

/* Type and workers of each operator from minddata_pipeline_raw (read
 * once for this reader and the data pipeline's, pr_ms_praw_get): an
 * error names the record's line and the file, as the table's reading
 * does; where the reading stopped (a damaged record), the rows before it
 * are typed and its error is this reader's. */
static enum pr_status
read_pipeline(struct pr_ms_praw *raw, struct pr_trace *t, struct pr_cpu_use *u,
              struct pr_error *err)
{
    const int *col = raw->col;
    enum pr_status st = pr_ms_praw_get(raw, err);
    size_t i;

    if (st != PR_OK)
        return st;
    if (!raw->opened) {
        *err = raw->err;
        return raw->st;
    }
    if (col[PR_MS_PRAW_ID] < 0 || col[PR_MS_PRAW_TYPE] < 0) {
        pr_error_set(err, PR_E_FORMAT, "no column op_id or op_type");
        pr_error_prefix(err, "line %llu: ", (unsigned long long)raw->head_line);
        pr_error_prefix(err, "%s: ", raw->path);
        return PR_E_FORMAT;
    }
    for (i = 0; i < raw->n; i++) {
        const struct pr_ms_praw_row *r = &raw->rows[i];
        const char *type = r->f[PR_MS_PRAW_TYPE];
        double id, w;
        struct pr_cpu_series *s;

        if (!pr_ms_num(r->f[PR_MS_PRAW_ID], &id) || id != floor(id)) {
            pr_error_set(err, PR_E_FORMAT, "op_id is not an integer");
            pr_error_prefix(err, "line %llu: ", (unsigned long long)r->line);
            pr_error_prefix(err, "%s: ", raw->path);
            return PR_E_FORMAT;
        }
        if ((s = op_series(u, (int64_t)id)) != NULL) {
            if (type[0])
                s->op_type = pr_strtab_intern(t->strs, type, strlen(type));
            if (col[PR_MS_PRAW_WORKERS] >= 0 &&
                pr_ms_num(r->f[PR_MS_PRAW_WORKERS], &w) && w >= 0 && w < 1e6)
                s->workers = (int32_t)w;
        }
    }
    if (raw->st != PR_OK)
        *err = raw->err;
    return raw->st;
}

enum pr_status
pr_ms_cpu_read(const char *cpu_path, struct pr_ms_praw *pipe, uint64_t max,
               struct pr_trace *t, struct pr_error *err)
{
    struct pr_cpu_use *u = calloc(1, sizeof(*u));
    cJSON *doc = NULL;
    enum pr_status st;

    if (u == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    st = read_json(cpu_path, max, &doc, err);
    if (st == PR_OK)
        st = from_doc(doc, u, err);
    cJSON_Delete(doc);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", cpu_path);
    if (st == PR_OK && pipe->path != NULL)
        st = read_pipeline(pipe, t, u, err);
    if (st != PR_OK || u->n_series == 0) {
        pr_cpu_use_free(u);
        return st;
    }
    pr_cpu_use_free(t->cpu_use);
    t->cpu_use = u;
    return PR_OK;
}
