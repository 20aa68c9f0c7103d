/* sget.c - the null-safe summary readers of sget.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "profreport/keys.h"
#include "profreport/sget.h"

const cJSON *
pr_sget(const cJSON *o, const char *key)
{
    return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

const cJSON *
pr_sget_path(const cJSON *o, const char *path)
{
    const char *dot;
    char head[64];
    size_t n;

    while ((dot = strchr(path, '.')) != NULL) {
        n = (size_t)(dot - path);
        if (n >= sizeof(head))
            return NULL;
        memcpy(head, path, n);
        head[n] = '\0';
        o = pr_sget(o, head);
        path = dot + 1;
    }
    return pr_sget(o, path);
}

double
pr_sget_num(const cJSON *o, const char *key)
{
    const cJSON *v = pr_sget(o, key);

    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return NAN;
    return v->valuedouble;
}

long
pr_sget_long(const cJSON *o, const char *key, long dflt)
{
    double v = pr_sget_num(o, key);

    if (isnan(v) || v < -2147483648.0 || v >= 2147483648.0 || v != floor(v))
        return dflt;
    return (long)v;
}

const char *
pr_sget_str(const cJSON *o, const char *key)
{
    const cJSON *v = pr_sget(o, key);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

const char *
pr_sget_str_or(const cJSON *o, const char *key, const char *dflt)
{
    const char *s = pr_sget_str(o, key);

    return s != NULL ? s : dflt;
}

int
pr_sget_true(const cJSON *o, const char *key)
{
    return cJSON_IsTrue(pr_sget(o, key)) ? 1 : 0;
}

size_t
pr_sget_len(const cJSON *a)
{
    int n = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0;

    return n > 0 ? (size_t)n : 0;
}

const cJSON *
pr_sget_first(const cJSON *o, const char *key)
{
    const cJSON *a = pr_sget(o, key);

    return cJSON_IsArray(a) ? a->child : NULL;
}

const cJSON *
pr_sget_find(const cJSON *arr, const char *key, const char *value)
{
    const cJSON *e;

    if (!cJSON_IsArray(arr))
        return NULL;
    cJSON_ArrayForEach(e, arr)
    {
        if (pr_sget_is(pr_sget_str(e, key), value))
            return e;
    }
    return NULL;
}

int
pr_sget_is(const char *s, const char *want)
{
    return s != NULL && strcmp(s, want) == 0;
}

const char *
pr_sget_older_note(const cJSON *run)
{
    const cJSON *d;

    cJSON_ArrayForEach(d, pr_sget(run, PR_K_DIAGNOSTICS))
    {
        if (pr_sget_is(pr_sget_str(d, PR_K_KIND), PR_SGET_OLDER_KIND))
            return pr_sget_str_or(d, PR_K_TEXT, "");
    }
    return NULL;
}

/* Another run of runs than `run` with the same worker? */
static int
worker_repeats(const cJSON *runs, const cJSON *run, const char *worker)
{
    const cJSON *arr = cJSON_IsArray(runs) ? runs : NULL, *r;

    cJSON_ArrayForEach(r, arr)
    {
        if (r != run && pr_sget_is(pr_sget_str(r, "worker"), worker))
            return 1;
    }
    return 0;
}

char *
pr_sget_run_name(const cJSON *runs, const cJSON *run, char *buf, size_t n)
{
    const char *worker = pr_sget_str(run, "worker");
    const char *span = pr_sget_str(run, "span");

    if (worker != NULL && span != NULL && span[0] != '\0' &&
        worker_repeats(runs, run, worker))
        snprintf(buf, n, "%s (span %s)", worker, span);
    else
        snprintf(buf, n, "%s", worker != NULL ? worker : "?");
    return buf;
}

int
pr_sget_spans_matter(const cJSON *runs)
{
    const cJSON *arr = cJSON_IsArray(runs) ? runs : NULL, *r;

    cJSON_ArrayForEach(r, arr)
    {
        const char *w = pr_sget_str(r, "worker");
        if (w != NULL && worker_repeats(runs, r, w))
            return 1;
    }
    return 0;
}

static double
item_num(const cJSON *a, size_t i)
{
    const cJSON *x = cJSON_GetArrayItem(a, (int)i);

    return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

int
pr_sget_job_is_memtl(const cJSON *summary, const cJSON *job)
{
    const cJSON *e = pr_sget_first(job, PR_K_RUNS), *run, *in;
    const char *w, *span;

    /* its kind; a summary older than review 19 #9 has none, and named
       the entry "<folder> (memory timeline)" */
    if (cJSON_IsString(pr_sget(job, PR_K_KIND)))
        return pr_sget_is(pr_sget_str(job, PR_K_KIND), "memory_timeline");
    w = pr_sget_str_or(job, PR_K_NAME, "");
    if (strlen(w) > 18 && strcmp(w + strlen(w) - 18, " (memory timeline)") == 0)
        return 1;
    run = cJSON_IsNumber(e)
              ? cJSON_GetArrayItem(pr_sget(summary, PR_K_RUNS), e->valueint)
              : NULL;
    if (run == NULL)
        return 0;
    if (cJSON_IsObject(pr_sget(run, PR_K_MEMORY_TIMELINE)))
        return 1;
    w = pr_sget_str_or(run, PR_K_WORKER, "");
    span = pr_sget_str_or(run, PR_K_SPAN, "");
    cJSON_ArrayForEach(in, pr_sget(summary, PR_K_INPUTS))
    {
        if (strcmp(pr_sget_str_or(in, PR_K_WORKER, ""), w) == 0 &&
            strcmp(pr_sget_str_or(in, PR_K_SPAN, ""), span) == 0)
            return pr_sget_is(pr_sget_str(in, PR_K_FORMAT), "memory_timeline");
    }
    return 0;
}

size_t
pr_sget_memtl_jobs(const cJSON *summary)
{
    const cJSON *job;
    size_t n = 0;

    cJSON_ArrayForEach(job, pr_sget(summary, PR_K_JOBS)) n +=
        (size_t)pr_sget_job_is_memtl(summary, job);
    return n;
}

size_t
pr_sget_memtl_runs(const cJSON *summary)
{
    const cJSON *job;
    size_t n = 0;

    cJSON_ArrayForEach(job, pr_sget(summary, PR_K_JOBS))
    {
        if (pr_sget_job_is_memtl(summary, job))
            n += pr_sget_len(pr_sget(job, PR_K_RUNS));
    }
    return n;
}

int
pr_sget_memtl_tie(const cJSON *summary, const cJSON *job, char *buf, size_t cap)
{
    const char *w = pr_sget_str(job, PR_K_TRACE_WORKER);
    const cJSON *run;
    double rank = NAN;

    if (cap > 0)
        buf[0] = '\0';
    if (w == NULL || cap == 0)
        return 0;
    cJSON_ArrayForEach(run, pr_sget(summary, PR_K_RUNS))
    {
        if (strcmp(pr_sget_str_or(run, PR_K_WORKER, ""), w) == 0 &&
            !cJSON_IsObject(pr_sget(run, PR_K_MEMORY_TIMELINE)) &&
            !isnan(pr_sget_num(run, PR_K_RANK))) {
            rank = pr_sget_num(run, PR_K_RANK);
            break;
        }
    }
    if (isnan(rank))
        snprintf(buf, cap, "%s's trace", w);
    else
        snprintf(buf, cap, "%s's trace (rank %.0f)", w, rank);
    return 1;
}

/* "ranks 0-1 of 128", "rank 34 of 300", "3 ranks", "2 runs" */
void
pr_sget_job_extent(const cJSON *job, char *buf, size_t cap)
{
    const cJSON *ranks = pr_sget(job, "ranks");
    size_t nr = pr_sget_len(ranks);
    size_t runs = pr_sget_len(pr_sget(job, PR_K_RUNS));
    double lo = item_num(ranks, 0), ws = pr_sget_num(job, PR_K_WORLD_SIZE);
    char of[48] = "";

    if (!isnan(ws))
        snprintf(of, sizeof(of), " of %.0f", ws);
    if (nr == 0)
        snprintf(buf, cap, "%zu run%s", runs, runs == 1 ? "" : "s");
    else if (nr == 1)
        snprintf(buf, cap, "rank %.0f%s", lo, of);
    else if (item_num(ranks, nr - 1) - lo == (double)(nr - 1))
        snprintf(buf, cap, "ranks %.0f-%.0f%s", lo, lo + (double)(nr - 1), of);
    else
        snprintf(buf, cap, "%zu ranks%s", nr, of);
}

const char *
pr_sget_job_of(const cJSON *jobs, size_t i)
{
    const cJSON *job = pr_sget_job_entry_of(jobs, i);

    return job != NULL ? pr_sget_str_or(job, "name", "?") : "";
}

const cJSON *
pr_sget_job_entry_of(const cJSON *jobs, size_t i)
{
    const cJSON *job, *e;

    cJSON_ArrayForEach(job, jobs)
    {
        cJSON_ArrayForEach(e, pr_sget(job, "runs"))
        {
            if (cJSON_IsNumber(e) && e->valuedouble == (double)i)
                return job;
        }
    }
    return NULL;
}

int
pr_sput(cJSON *o, const char *key, cJSON *item)
{
    cJSON *old = cJSON_GetObjectItemCaseSensitive(o, key);
    size_t n;
    char *name;

    if (item == NULL || o == NULL || key == NULL)
        return 0;
    if (old == NULL)
        return cJSON_AddItemToObject(o, key, item) ? 1 : 0;
    n = strlen(key) + 1;
    name = cJSON_malloc(n); /* no hooks are installed: cJSON frees it */
    if (name == NULL)
        return 0;
    memcpy(name, key, n);
    if (!(item->type & cJSON_StringIsConst))
        cJSON_free(item->string);
    item->type &= ~cJSON_StringIsConst;
    item->string = name;
    return cJSON_ReplaceItemViaPointer(o, old, item) ? 1 : 0;
}

int
pr_sput_str(cJSON *o, const char *key, const char *text)
{
    cJSON *v = cJSON_CreateString(text);

    if (v != NULL && pr_sput(o, key, v))
        return 1;
    cJSON_Delete(v);
    return 0;
}

int
pr_sget_run_is_capture(const cJSON *run)
{
    return pr_sget_is(pr_sget_str(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_BASIS),
                      "capture");
}

int
pr_sget_run_first_iteration_only(const cJSON *run)
{
    const cJSON *steps = pr_sget(run, PR_K_STEPS);
    const char *name = pr_sget_str(cJSON_GetArrayItem(steps, 0), PR_K_NAME);

    if (cJSON_GetArraySize(steps) != 1 || name == NULL)
        return 0;
    return strcmp(name, "ProfilerStep#0") == 0 || strcmp(name, "Step 0") == 0 ||
           (strcmp(name, "Step 1") == 0 &&
            pr_sget_is(pr_sget_str(run, PR_K_FRAMEWORK), "mindspore"));
}

int
pr_sget_runs_late_first_step_only(const cJSON *runs)
{
    const cJSON *r;
    int any = 0;

    cJSON_ArrayForEach(r, runs)
    {
        const cJSON *lp = pr_sget(r, PR_K_LATE_PEER);

        if (!cJSON_IsObject(lp))
            continue;
        if (!(pr_sget_num(lp, PR_K_FIRST_STEP_PCT) >= 80.0))
            return 0;
        any = 1;
    }
    return any;
}

int
pr_sget_run_device_unrecorded(const cJSON *run)
{
    const cJSON *o, *v = pr_sget(run, PR_K_DEVICE_NOT_RECORDED);

    /* the analysis's word (analysis.c); a summary older than the key,
       or a run still being analysed, is judged as the analysis judges */
    if (v != NULL)
        return pr_sget_is(cJSON_GetStringValue(v), "nccl_calls")      ? 2
               : pr_sget_is(cJSON_GetStringValue(v), "devices_named") ? 1
                                                                      : 0;
    if (!cJSON_IsTrue(pr_sget(run, PR_K_HOST_ONLY)))
        return 0;
    cJSON_ArrayForEach(o, pr_sget(pr_sget(run, PR_K_COMMUNICATION), PR_K_OPS))
    {
        if (pr_sget_is(pr_sget_str(o, PR_K_BACKEND), "nccl"))
            return 2;
    }
    return pr_sget_len(pr_sget(run, PR_K_DEVICES)) > 0;
}

int
pr_sget_run_world_floor(const cJSON *run)
{
    const char *b = pr_sget_str(run, PR_K_WORLD_SIZE_BOUND);

    if (!cJSON_IsNumber(pr_sget(run, PR_K_WORLD_SIZE)))
        return 0;
    if (b != NULL)
        return strcmp(b, "at_least") == 0;
    return pr_sget_is(pr_sget_str(run, PR_K_WORLD_SIZE_SOURCE),
                      "communication groups");
}

size_t
pr_sget_host_python(const cJSON *run, char *text, size_t cap, size_t len)
{
    const cJSON *h = pr_sget(run, PR_K_HOST_COVERAGE), *f;
    double py = pr_sget_num(h, PR_K_PYTHON_PCT);
    size_t i = 0;

    if (!(py >= 50.0) || text == NULL || len >= cap)
        return len;
    len += (size_t)snprintf(text + len, cap - len,
                            ", the trace's Python frames hold %.*f%% of it",
                            pr_pct_prec(py), py);
    cJSON_ArrayForEach(f, pr_sget(h, PR_K_PYTHON_FRAMES))
    {
        if (len >= cap || !cJSON_IsString(f))
            break;
        len += (size_t)snprintf(text + len, cap - len, "%s%s",
                                i++ ? "; " : " (most: ", f->valuestring);
    }
    if (i > 0 && len < cap)
        len += (size_t)snprintf(text + len, cap - len, ")");
    return len < cap ? len : cap - 1;
}
