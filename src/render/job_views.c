/* job_views.c - the report view of one job of a summary that holds
 * several (summary["jobs"], issue #15): the reports show one part per job,
 * each drawn from a view that looks like the summary of that job alone. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/detail.h"
#include "profreport/figures.h"
#include "profreport/keys.h"
#include "profreport/sget.h"

size_t
pr_detail_n_jobs(const cJSON *summary)
{
    size_t n = pr_sget_len(pr_sget(summary, PR_K_JOBS));

    return n > 1 ? n : 0;
}

/* loc[i]: run i's place among the job's runs, SIZE_MAX when not in it. */
static size_t *
local_index(const cJSON *job, size_t n_runs)
{
    size_t *loc = malloc((n_runs + 1) * sizeof(*loc)), i, k = 0;
    const cJSON *e;

    if (loc == NULL)
        return NULL;
    for (i = 0; i < n_runs; i++)
        loc[i] = SIZE_MAX;
    cJSON_ArrayForEach(e, pr_sget(job, PR_K_RUNS))
    {
        if (cJSON_IsNumber(e) && e->valuedouble >= 0 &&
            e->valuedouble < (double)n_runs)
            loc[(size_t)e->valuedouble] = k;
        k++;
    }
    return loc;
}

static void
remap_one(cJSON *ref, const size_t *loc, size_t n_runs)
{
    cJSON *run = cJSON_GetObjectItemCaseSensitive(ref, PR_K_RUN);

    if (cJSON_IsNumber(run) && run->valuedouble >= 0 &&
        run->valuedouble < (double)n_runs &&
        loc[(size_t)run->valuedouble] != SIZE_MAX)
        cJSON_SetNumberValue(run, (double)loc[(size_t)run->valuedouble]);
}

/* The job overview with its "run" numbers indexing the view's runs. */
static cJSON *
job_overview(const cJSON *entry, const size_t *loc, size_t n_runs)
{
    cJSON *j = cJSON_Duplicate(pr_sget(entry, PR_K_JOB), 1), *r;

    if (j == NULL)
        return cJSON_CreateNull();
    remap_one(cJSON_GetObjectItemCaseSensitive(j, PR_K_SLOWEST), loc, n_runs);
    remap_one(cJSON_GetObjectItemCaseSensitive(j, PR_K_MEDIAN), loc, n_runs);
    remap_one(cJSON_GetObjectItemCaseSensitive(j, PR_K_SLOWEST_BY_MEAN), loc,
              n_runs);
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(j, PR_K_PER_RANK))
        remap_one(r, loc, n_runs);
    return j;
}

/* The jobs of a summary, with what every job's view needs computed once:
 * the runs and inputs by index and the input of each run, so that n views
 * cost the runs of each job plus a walk of the summary's runs, not a
 * pairing of every run with its input per view (issue #35: n one-rank
 * jobs were O(n^2) in the pairing, and the pairing's key lookups the most
 * of a report's time). */
struct pr_job_set {
    const cJSON *summary;
    const cJSON **runs, **inputs; /* by index, borrowed */
    size_t *input_of;             /* per run: its input, SIZE_MAX: none */
    size_t n_runs, n_in;
};

/* The job's runs, in the summary's order (references). */
static int
add_runs(cJSON *base, const struct pr_job_set *s, const size_t *loc)
{
    cJSON *a = cJSON_AddArrayToObject(base, PR_K_RUNS);
    size_t i;

    if (a == NULL)
        return 0;
    for (i = 0; i < s->n_runs; i++)
        if (loc[i] != SIZE_MAX &&
            !cJSON_AddItemReferenceToArray(a, (cJSON *)(uintptr_t)s->runs[i]))
            return 0;
    return 1;
}

/* A hash of a (worker, span) pair. */
static uint64_t
key_hash(const char *worker, const char *span)
{
    uint64_t h = 1469598103934665603ULL;
    const char *p;

    for (p = worker; *p != '\0'; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    h = (h ^ 0xffu) * 1099511628211ULL; /* between the two */
    for (p = span; *p != '\0'; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    return h;
}

/* The inputs of a summary chained by (worker, span), in order, for runs
 * to take from the head of their key's chain. */
struct chains {
    const char **worker, **span; /* per input, borrowed */
    size_t *next;                /* per input: the next of its key */
    size_t *first, *head, *tail; /* per slot: an input of the key (SIZE_MAX:
                                    a free slot), the next one untaken,
                                    the last */
    size_t cap;                  /* slots, a power of two */
};

static void
chains_free(struct chains *c)
{
    free(c->worker);
    free(c->span);
    free(c->next);
    free(c->first);
    free(c->head);
    free(c->tail);
}

/* The slot of (worker, span): its key's, or the free one it would take. */
static size_t
chains_slot(const struct chains *c, const char *worker, const char *span)
{
    size_t at = (size_t)key_hash(worker, span) & (c->cap - 1);

    while (c->first[at] != SIZE_MAX &&
           !(strcmp(c->worker[c->first[at]], worker) == 0 &&
             strcmp(c->span[c->first[at]], span) == 0))
        at = (at + 1) & (c->cap - 1);
    return at;
}

static int
chains_build(struct chains *c, const cJSON *inputs, size_t n_in)
{
    const cJSON *in;
    size_t k = 0, i;

    memset(c, 0, sizeof(*c));
    for (c->cap = 16; c->cap < 2 * n_in; c->cap *= 2)
        ;
    c->worker = malloc((n_in + 1) * sizeof(*c->worker));
    c->span = malloc((n_in + 1) * sizeof(*c->span));
    c->next = malloc((n_in + 1) * sizeof(*c->next));
    c->first = malloc(c->cap * sizeof(*c->first));
    c->head = malloc(c->cap * sizeof(*c->head));
    c->tail = malloc(c->cap * sizeof(*c->tail));
    if (c->worker == NULL || c->span == NULL || c->next == NULL ||
        c->first == NULL || c->head == NULL || c->tail == NULL)
        return 0;
    for (i = 0; i < c->cap; i++)
        c->first[i] = SIZE_MAX;
    cJSON_ArrayForEach(in, inputs)
    {
        size_t at;

        if (k >= n_in)
            break;
        c->worker[k] = pr_sget_str_or(in, PR_K_WORKER, "");
        c->span[k] = pr_sget_str_or(in, PR_K_SPAN, "");
        c->next[k] = SIZE_MAX;
        at = chains_slot(c, c->worker[k], c->span[k]);
        if (c->first[at] == SIZE_MAX)
            c->first[at] = c->head[at] = k;
        else
            c->next[c->tail[at]] = k;
        c->tail[at] = k;
        k++;
    }
    return 1;
}

/* The input run r takes: the first of its worker and span not yet taken,
 * or SIZE_MAX. */
static size_t
chains_take(struct chains *c, const cJSON *r)
{
    size_t at = chains_slot(c, pr_sget_str_or(r, PR_K_WORKER, ""),
                            pr_sget_str_or(r, PR_K_SPAN, "")),
           k;

    if (c->first[at] == SIZE_MAX || c->head[at] == SIZE_MAX)
        return SIZE_MAX; /* none of its key, or all taken */
    k = c->head[at];
    c->head[at] = c->next[k];
    return k;
}

/* The inputs of the job's runs, in the summary's order (references). */
static int
add_inputs(cJSON *base, const struct pr_job_set *s, const size_t *loc)
{
    unsigned char *mark = calloc(s->n_in + 1, 1); /* 1: in the job */
    cJSON *a = cJSON_AddArrayToObject(base, PR_K_INPUTS);
    size_t i;
    int ok = mark != NULL && a != NULL;

    for (i = 0; ok && i < s->n_runs; i++)
        if (loc[i] != SIZE_MAX && s->input_of[i] != SIZE_MAX)
            mark[s->input_of[i]] = 1;
    for (i = 0; ok && i < s->n_in; i++)
        if (mark[i] &&
            !cJSON_AddItemReferenceToArray(a, (cJSON *)(uintptr_t)s->inputs[i]))
            ok = 0;
    free(mark);
    return ok;
}

/* The runs and inputs by index, and each run's input: the first input of
 * its worker and span not yet taken (runs and inputs are added in pairs,
 * and the runs' sort is stable). */
static int
set_fill(struct pr_job_set *s)
{
    const cJSON *e;
    struct chains c;
    size_t i = 0;
    int ok;

    s->runs = malloc((s->n_runs + 1) * sizeof(*s->runs));
    s->inputs = malloc((s->n_in + 1) * sizeof(*s->inputs));
    s->input_of = malloc((s->n_runs + 1) * sizeof(*s->input_of));
    if (s->runs == NULL || s->inputs == NULL || s->input_of == NULL)
        return 0;
    cJSON_ArrayForEach(e, pr_sget(s->summary, PR_K_RUNS))
    {
        if (i < s->n_runs)
            s->runs[i++] = e;
    }
    i = 0;
    cJSON_ArrayForEach(e, pr_sget(s->summary, PR_K_INPUTS))
    {
        if (i < s->n_in)
            s->inputs[i++] = e;
    }
    ok = chains_build(&c, pr_sget(s->summary, PR_K_INPUTS), s->n_in);
    for (i = 0; ok && i < s->n_runs; i++)
        s->input_of[i] = chains_take(&c, s->runs[i]);
    chains_free(&c);
    return ok;
}

enum pr_status
pr_detail_jobs_open(const cJSON *summary, struct pr_job_set **set,
                    struct pr_error *err)
{
    struct pr_job_set *s = calloc(1, sizeof(*s));

    *set = NULL;
    if (s == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    s->summary = summary;
    s->n_runs = pr_sget_len(pr_sget(summary, PR_K_RUNS));
    s->n_in = pr_sget_len(pr_sget(summary, PR_K_INPUTS));
    if (!set_fill(s)) {
        pr_detail_jobs_close(s);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    *set = s;
    return PR_OK;
}

void
pr_detail_jobs_close(struct pr_job_set *set)
{
    if (set == NULL)
        return;
    free(set->runs);
    free(set->inputs);
    free(set->input_of);
    free(set);
}

/* The summary of job k alone: every member borrowed but runs, inputs,
 * distributed and job, which are the job's; no "jobs". */
static cJSON *
job_base(const struct pr_job_set *s, const cJSON *entry)
{
    const cJSON *summary = s->summary;
    size_t n_runs = s->n_runs;
    size_t *loc = local_index(entry, n_runs);
    cJSON *b = cJSON_CreateObject();
    const cJSON *m;
    int ok = b != NULL && loc != NULL;

    for (m = ok ? summary->child : NULL; ok && m != NULL; m = m->next) {
        const char *k = m->string;
        if (strcmp(k, "jobs") == 0 || strcmp(k, "detail") == 0)
            continue;
        if (strcmp(k, PR_K_RUNS) == 0)
            ok = add_runs(b, s, loc);
        else if (strcmp(k, PR_K_INPUTS) == 0)
            ok = add_inputs(b, s, loc);
        else if (strcmp(k, "job") == 0)
            ok = cJSON_AddItemToObject(b, k, job_overview(entry, loc, n_runs));
        else
            ok = cJSON_AddItemReferenceToObject(
                b, k,
                (cJSON *)(uintptr_t)(strcmp(k, PR_K_DISTRIBUTED) == 0
                                         ? pr_sget(entry, k)
                                         : m));
    }
    free(loc);
    if (!ok) {
        cJSON_Delete(b);
        return NULL;
    }
    return b;
}

enum pr_status
pr_detail_job_view(const struct pr_job_set *set, size_t k, const char *spec,
                   cJSON **base, cJSON **view, struct pr_error *err)
{
    const cJSON *entry =
        cJSON_GetArrayItem(pr_sget(set->summary, PR_K_JOBS), (int)k);
    enum pr_status st;

    *view = NULL;
    *base = NULL;
    if (!cJSON_IsObject(entry))
        return pr_error_set(err, PR_E_FORMAT, "summary has no job %zu", k + 1);
    if (!cJSON_IsObject(pr_sget(entry, PR_K_DISTRIBUTED)) &&
        !cJSON_IsNull(pr_sget(entry, PR_K_DISTRIBUTED)))
        return pr_error_set(err, PR_E_FORMAT,
                            "summary: job %zu has no distributed view", k + 1);
    *base = job_base(set, entry);
    if (*base == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    st = pr_detail_view(*base, spec, view, err);
    if (st != PR_OK) {
        cJSON_Delete(*base);
        *base = NULL;
    }
    return st;
}

/* mark[i] = 1 for each run of `summary` that `view` holds (a view's runs
 * are references: they share their first member). */
static void
mark_view_runs(const cJSON *summary, const cJSON *view, unsigned char *mark)
{
    const cJSON *v, *r;
    size_t i;

    cJSON_ArrayForEach(v, pr_sget(view, PR_K_RUNS))
    {
        i = 0;
        cJSON_ArrayForEach(r, pr_sget(summary, PR_K_RUNS))
        {
            if (r->child != NULL && r->child == v->child)
                mark[i] = 1;
            i++;
        }
    }
}

/* The same for a job's view, looking only at the job's runs. */
static void
mark_job_runs(const struct pr_job_set *s, size_t k, const cJSON *view,
              unsigned char *mark)
{
    const cJSON *job =
        cJSON_GetArrayItem(pr_sget(s->summary, PR_K_JOBS), (int)k);
    const cJSON *v, *e;

    cJSON_ArrayForEach(v, pr_sget(view, PR_K_RUNS))
    {
        cJSON_ArrayForEach(e, pr_sget(job, PR_K_RUNS))
        {
            size_t i;
            if (!cJSON_IsNumber(e) || !(e->valuedouble >= 0) ||
                e->valuedouble >= (double)s->n_runs)
                continue;
            i = (size_t)e->valuedouble;
            if (s->runs[i]->child != NULL && s->runs[i]->child == v->child)
                mark[i] = 1;
        }
    }
}

enum pr_status
pr_detail_marks(const cJSON *summary, const char *spec, unsigned char *mark,
                struct pr_error *err)
{
    size_t k, n_jobs = pr_detail_n_jobs(summary);
    cJSON *base = NULL, *view = NULL;
    struct pr_job_set *set;
    enum pr_status st = PR_OK;

    memset(mark, 0, pr_sget_len(pr_sget(summary, PR_K_RUNS)));
    if (n_jobs == 0) {
        st = pr_detail_view(summary, spec, &view, err);
        if (st == PR_OK)
            mark_view_runs(summary, view, mark);
        cJSON_Delete(view);
        return st;
    }
    st = pr_detail_jobs_open(summary, &set, err);
    for (k = 0; k < n_jobs && st == PR_OK; k++) {
        st = pr_detail_job_view(set, k, spec, &base, &view, err);
        if (st == PR_OK)
            mark_job_runs(set, k, view, mark);
        cJSON_Delete(view);
        cJSON_Delete(base);
    }
    pr_detail_jobs_close(set);
    return st;
}

static const struct pr_col job_cols[] = {
    {"job", PR_K_LABEL, "Job", PR_FMT_TEXT, 3.2,
     "The job's folder below the one all jobs share", PR_COL_BOTH},
    {"kind", PR_K_KIND, "Kind", PR_FMT_TEXT, 1.1,
     "Traces of a job, or a raw memory timeline (PyTorch's "
     "export_memory_timeline_raw), shown on its own",
     PR_COL_BOTH},
    {"ranks", "extent", "Ranks", PR_FMT_TEXT, 1.2,
     "The distributedInfo ranks the job's traces hold, of its world size "
     "(– for a memory timeline, which names no rank)",
     PR_COL_BOTH},
    {"runs", PR_K_RUNS, "Runs", PR_FMT_COUNT, 0.5,
     "Traces read: one per worker or span (– for a memory timeline, "
     "which is no run of a job)",
     PR_COL_BOTH},
    {"step", PR_K_STEP_US, "Mean step", PR_FMT_US, 0.8,
     "Mean step time over the job's runs with step markers", PR_COL_BOTH},
    {"capture", "capture_us", "Capture, no steps", PR_FMT_US, 0.9,
     "The longest whole capture among the job's runs without step "
     "markers: one window, not a step (review 21 #4)",
     PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* Mean of the job's runs' mean step time over the runs with steps, NAN
 * where none has; *capture the longest whole capture of a run without
 * step markers (step_summary.basis "capture"), NAN where none is. */
static double
mean_step(const cJSON *summary, const cJSON *job, double *capture)
{
    const cJSON *runs = pr_sget(summary, PR_K_RUNS), *e;
    double sum = 0;
    size_t n = 0;

    *capture = NAN;
    cJSON_ArrayForEach(e, pr_sget(job, PR_K_RUNS))
    {
        const cJSON *run =
            cJSON_GetArrayItem(runs, cJSON_IsNumber(e) ? e->valueint : -1);
        double m = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEAN_US);
        if (isnan(m))
            continue;
        if (pr_sget_run_is_capture(run)) {
            *capture = isnan(*capture) ? m : fmax(*capture, m);
            continue;
        }
        sum += m;
        n++;
    }
    return n > 0 ? sum / (double)n : NAN;
}

static cJSON *
index_row(const cJSON *summary, const cJSON *job, size_t k)
{
    cJSON *r = cJSON_CreateObject();
    char text[600];
    double capture, step = mean_step(summary, job, &capture);
    int memtl = pr_sget_job_is_memtl(summary, job);
    int ok = r != NULL;

    snprintf(text, sizeof(text), "%zu. %s", k + 1,
             pr_sget_str_or(job, PR_K_NAME, "?"));
    ok = ok && cJSON_AddStringToObject(r, PR_K_LABEL, text);
    if (pr_sget_job_is_memtl(summary, job)) /* no rank: review 18 #6 */
        snprintf(text, sizeof(text), "–");
    else if (pr_sget_len(pr_sget(job, PR_K_RANKS)) == 0) /* review 19 #9 */
        snprintf(text, sizeof(text), "none named"); /* Runs says how many */
    else
        pr_sget_job_extent(job, text, sizeof(text));
    ok = ok && cJSON_AddStringToObject(r, "extent", text) &&
         cJSON_AddStringToObject(r, PR_K_KIND,
                                 pr_sget_job_is_memtl(summary, job)
                                     ? "memory timeline"
                                     : "traces") &&
         (memtl ? cJSON_AddNullToObject(r, PR_K_RUNS) != NULL
                : cJSON_AddNumberToObject(
                      r, PR_K_RUNS,
                      (double)pr_sget_len(pr_sget(job, PR_K_RUNS))) != NULL) &&
         (isnan(step) ? cJSON_AddNullToObject(r, PR_K_STEP_US)
                      : cJSON_AddNumberToObject(r, PR_K_STEP_US, step)) &&
         (isnan(capture) ? cJSON_AddNullToObject(r, "capture_us")
                         : cJSON_AddNumberToObject(r, "capture_us", capture));
    if (!ok) {
        cJSON_Delete(r);
        return NULL;
    }
    return r;
}

/* Each job's split_note (jobs.c: why it is not one job with another of
 * its folder; review 21 #4), appended to text as sentences. */
static void
split_notes(const cJSON *summary, char *text, size_t cap)
{
    const cJSON *job;
    size_t len = strlen(text), k = 0;

    cJSON_ArrayForEach(job, pr_sget(summary, PR_K_JOBS))
    {
        const char *note = pr_sget_str(job, PR_K_SPLIT_NOTE);
        if (note == NULL || note[0] == '\0' || len >= cap)
            continue;
        if (k++ == 8) {
            snprintf(text + len, cap - len, " Other jobs split likewise.");
            break;
        }
        len += (size_t)snprintf(text + len, cap - len, " %s: %s.",
                                pr_sget_str_or(job, PR_K_NAME, "?"), note);
    }
}

void
pr_detail_jobs_index(struct pr_figs *f, const cJSON *summary)
{
    /* runs without steps: each one's window is its capture (issue #29) */
    struct pr_fig_table t = {.cols = job_cols,
                             .what = "jobs",
                             .limit = 100000,
                             .capture = pr_fig_summary_is_capture(summary)};
    cJSON *rows = cJSON_CreateArray();
    const cJSON *job;
    size_t k = 0;
    size_t n_tl = pr_sget_memtl_jobs(summary);
    size_t n_jobs = pr_sget_len(pr_sget(summary, PR_K_JOBS)) - n_tl;
    char text[2400], tie[300], ties[1200];
    size_t n_tied = 0, len = 0;

    /* a memory timeline is no job: said apart, and the clause on the
       jobs' own figures only where jobs of traces are several (review
       18 #6) */
    /* the traces the timelines' files are named after (memtl13): a
       sentence, where a table cell would be cut */
    ties[0] = '\0';
    cJSON_ArrayForEach(job, pr_sget(summary, PR_K_JOBS))
    {
        if (!pr_sget_memtl_tie(summary, job, tie, sizeof(tie)))
            continue;
        if (n_tied++ < 8 && len < sizeof(ties))
            len += (size_t)snprintf(
                ties + len, sizeof(ties) - len, "%s%s %s %s",
                n_tied > 1 ? "; " : "", pr_sget_str_or(job, PR_K_NAME, "?"),
                n_tied > 1 ? "after" : "is named after", tie);
    }
    if (n_tied > 8 && len < sizeof(ties))
        snprintf(ties + len, sizeof(ties) - len, "; and %zu more", n_tied - 8);
    snprintf(text, sizeof(text), "%s%s%s",
             n_jobs > 1 ? "The inputs hold several jobs: traces of one folder "
                          "are one job, unless their distributedInfo says "
                          "otherwise (two world sizes, or one rank held by "
                          "two workers), they ran on different device "
                          "models and name no rank, or on two device kinds "
                          "with a rank held by both, or they "
                          "started more than 30 min apart. Each job below "
                          "has its own "
                          "sections, and its figures (distributed, "
                          "stragglers, job overview) are its own."
             : n_jobs == 1 ? "The traces are one job."
                           : "",
             n_tl > 1   ? " Each memory timeline (torch.profiler's "
                          "export_memory_timeline_raw) is a part of its own, "
                          "in full (its curve, peak and categories): none "
                          "is a rank of a job, because a file does not say "
                          "which run or device it belongs to"
             : n_tl > 0 ? " A memory timeline (torch.profiler's "
                          "export_memory_timeline_raw) is shown on its own, "
                          "in full: it is not a rank of a job, because "
                          "the file does not say which run or device it "
                          "belongs to"
                        : "",
             n_tl == 0 ? "" : ".");
    split_notes(summary, text, sizeof(text));
    if (n_tied > 0) {
        len = strlen(text);
        snprintf(text + len, sizeof(text) - len,
                 " By %s alone (a file holds no process or device), %s.",
                 n_tied > 1 ? "their files' names" : "its file's name", ties);
    }
    pr_figs_text(f, text);
    cJSON_ArrayForEach(job, pr_sget(summary, PR_K_JOBS))
    {
        cJSON *r = rows != NULL ? index_row(summary, job, k++) : NULL;
        if (r == NULL || !cJSON_AddItemToArray(rows, r)) {
            cJSON_Delete(r);
            cJSON_Delete(rows);
            rows = NULL;
            break;
        }
    }
    if (rows == NULL)
        pr_figs_nomem(f);
    pr_figs_table_own(f, &t, rows, "No jobs.");
}
