/* detail.c - the report view of a job: every member of the summary
 * borrowed, "runs" narrowed to the detail ranks (detail.h). */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/detail.h"
#include "profreport/keys.h"
#include "profreport/parse.h"
#include "profreport/sget.h"

#define MAX_WORD 64

/* The next comma-separated word of *p into w (trimmed); 0 at the end. */
static int
next_word(const char **p, char *w, size_t n)
{
    const char *s = *p, *e;
    size_t len;

    if (*s == '\0')
        return 0;
    e = strchr(s, ',');
    if (e == NULL)
        e = s + strlen(s);
    while (s < e && *s == ' ')
        s++;
    len = (size_t)(e - s);
    while (len > 0 && s[len - 1] == ' ')
        len--;
    if (len >= n)
        len = n - 1;
    memcpy(w, s, len);
    w[len] = '\0';
    *p = *e == ',' ? e + 1 : e;
    return 1;
}

static int
is_rank_word(const char *w, int64_t *rank)
{
    return pr_parse_int64(w, 0, INT32_MAX, rank);
}

enum pr_status
pr_detail_check(const char *spec, struct pr_error *err)
{
    const char *p = spec != NULL ? spec : PR_DETAIL_DEFAULT;
    char w[MAX_WORD];
    int64_t r;
    int words = 0;

    while (next_word(&p, w, sizeof(w))) {
        words++;
        if (strcmp(w, "slowest") != 0 && strcmp(w, "median") != 0 &&
            strcmp(w, "fastest") != 0 && strcmp(w, "all") != 0 &&
            !is_rank_word(w, &r))
            return pr_error_set(err, PR_E_USAGE,
                                "--detail-ranks: '%s' is not slowest, "
                                "median, fastest, all or a rank number",
                                w);
    }
    if (words == 0)
        return pr_error_set(err, PR_E_USAGE,
                            "--detail-ranks: expected slowest, median, "
                            "fastest, all or rank numbers, separated by "
                            "commas");
    return PR_OK;
}

/* Where the job names no slowest or median rank (captures alone, or
 * mean steps under the noise floor: job.c), the ranks of its spread with
 * the longest (median 0) or the median mean, as the Ranks table orders
 * them: the detail still shows them, under words that name no slowest
 * rank (why_word).  -1 when none. */
static long
by_mean(const cJSON *job, int median)
{
    const cJSON *e;
    double v[64];
    long at[64];
    size_t n = 0, i, k;

    cJSON_ArrayForEach(e, pr_sget(job, PR_K_PER_RANK))
    {
        double m = pr_sget_num(e, PR_K_MEAN_US);

        if (n == 64 || isnan(m) || cJSON_IsFalse(pr_sget(e, PR_K_IN_SPREAD)))
            continue;
        for (i = n; i > 0 && v[i - 1] > m; i--) {
            v[i] = v[i - 1];
            at[i] = at[i - 1];
        }
        v[i] = m;
        at[i] = pr_sget_long(e, PR_K_RUN, -1);
        n++;
    }
    if (n == 0)
        return -1;
    k = median ? (n - 1) / 2 : n - 1;
    return at[k];
}

/* The run index that word names in this job; -1 when none. */
static long
run_of(const cJSON *summary, const char *w)
{
    const cJSON *job = pr_sget(summary, PR_K_JOB), *e;
    const cJSON *runs = pr_sget(summary, PR_K_RUNS);
    double best = NAN;
    long i = 0, at = -1;
    int64_t rank;

    if ((strcmp(w, "slowest") == 0 || strcmp(w, "median") == 0) &&
        cJSON_IsObject(pr_sget(job, w)))
        return pr_sget_long(pr_sget(job, w), PR_K_RUN, -1);
    if (strcmp(w, "slowest") == 0 || strcmp(w, "median") == 0)
        return by_mean(job, strcmp(w, "median") == 0);
    if (strcmp(w, "fastest") == 0) {
        cJSON_ArrayForEach(e, pr_sget(job, PR_K_PER_RANK))
        {
            double m = pr_sget_num(e, PR_K_MEAN_US);
            if (!isnan(m) && (isnan(best) || m < best)) {
                best = m;
                at = pr_sget_long(e, PR_K_RUN, -1);
            }
        }
        return at;
    }
    if (!is_rank_word(w, &rank))
        return -1;
    cJSON_ArrayForEach(e, runs)
    {
        if (pr_sget_num(e, PR_K_RANK) == (double)rank)
            return i;
        i++;
    }
    return -1;
}

/* "slowest" or "fastest" in a job of which the report holds some ranks
 * (2 of 8): the slowest here is not the job's (review-2 finding 9). */
static int
partial_word(const cJSON *summary, const char *w)
{
    return cJSON_IsFalse(
               pr_sget(pr_sget(summary, PR_K_JOB), PR_K_RANKS_COMPLETE)) &&
           (strcmp(w, "slowest") == 0 || strcmp(w, "fastest") == 0);
}

/* "slowest", "fastest" or "median" where fewer than two ranks have
 * steps to compare: the one rank is none of them (issue #30 finding 7:
 * mindspore
 * fixtures' "rank10 (slowest of those here, median)", the only rank
 * with steps of three). */
static int
alone_word(const cJSON *summary, const char *w)
{
    const cJSON *ss = pr_sget(pr_sget(summary, PR_K_JOB), PR_K_STEP_US);

    return (strcmp(w, "slowest") == 0 || strcmp(w, "fastest") == 0 ||
            strcmp(w, "median") == 0) &&
           pr_sget_num(ss, PR_K_RANKS_WITH_STEPS) == 1;
}

/* "slowest" or "median" where the job names none (no steps, or a spread
 * under the noise floor): no words, "" into buf; NULL where the job names
 * it. */
static const char *
why_word(const cJSON *summary, const char *w, char *buf, size_t n)
{
    const cJSON *job = pr_sget(summary, PR_K_JOB);

    if ((strcmp(w, "slowest") != 0 && strcmp(w, "median") != 0) ||
        cJSON_IsObject(pr_sget(job, w)))
        return NULL;
    /* no label: a rank the job does not name slowest or median is not
       ranked here either, its lead may be noise (review23g item 8: nsys's
       "longest capture" was 7.7 us, 0.0026%, longer) */
    if (n > 0)
        buf[0] = '\0';
    return buf;
}

/* Add why to the run's entry (made on first use) in the detail list. */
static int
note_run(cJSON *list, const cJSON *runs, long idx, const char *why)
{
    const cJSON *e;
    cJSON *o;
    char buf[256];

    cJSON_ArrayForEach(e, list)
    {
        if (pr_sget_num(e, PR_K_RUN) != (double)idx)
            continue;
        if (why[0] == '\0' || strstr(pr_sget_str_or(e, "why", ""), why) != NULL)
            return 1; /* said already ("the only rank with steps") */
        o = (cJSON *)(uintptr_t)e;
        snprintf(buf, sizeof(buf), "%s%s%s", pr_sget_str_or(o, "why", ""),
                 pr_sget_str_or(o, "why", "")[0] ? ", " : "", why);
        {
            cJSON *s = cJSON_CreateString(buf);

            if (pr_sput(o, "why", s))
                return 1;
            cJSON_Delete(s);
            return 0;
        }
    }
    o = cJSON_CreateObject();
    if (o == NULL || !cJSON_AddItemToArray(list, o)) {
        cJSON_Delete(o);
        return 0;
    }
    return cJSON_AddNumberToObject(o, PR_K_RUN, (double)idx) != NULL &&
           cJSON_AddStringToObject(
               o, PR_K_WORKER,
               pr_sget_str_or(cJSON_GetArrayItem(runs, (int)idx), PR_K_WORKER,
                              "?")) != NULL &&
           cJSON_AddStringToObject(o, "why", why) != NULL;
}

/* Whether run is a PyTorch memory timeline: its input (the one of its
 * worker and span) is of that format.  The run itself may be lite here
 * (its memory_timeline left for the full read). */
static int
is_memtl_run(const cJSON *summary, const cJSON *run)
{
    const char *w = pr_sget_str_or(run, PR_K_WORKER, "");
    const char *s = pr_sget_str_or(run, PR_K_SPAN, "");
    const cJSON *in;

    cJSON_ArrayForEach(in, pr_sget(summary, PR_K_INPUTS))
    {
        if (strcmp(pr_sget_str_or(in, PR_K_WORKER, ""), w) == 0 &&
            strcmp(pr_sget_str_or(in, PR_K_SPAN, ""), s) == 0 &&
            strcmp(pr_sget_str_or(in, PR_K_FORMAT, ""), "memory_timeline") ==
                0) /* the format's name */
            return 1;
    }
    return 0;
}

static int
cmp_run(const void *a, const void *b)
{
    double x = pr_sget_num(*(cJSON *const *)a, PR_K_RUN);
    double y = pr_sget_num(*(cJSON *const *)b, PR_K_RUN);

    return x < y ? -1 : x > y;
}

/* The "detail" object for spec, runs in summary order. */
static cJSON *
choose(const cJSON *summary, const char *spec)
{
    const cJSON *runs = pr_sget(summary, PR_K_RUNS), *e;
    cJSON *d = cJSON_CreateObject(), *list = NULL, *missing = NULL, *v[64];
    const char *p = spec;
    char w[MAX_WORD], why[MAX_WORD + 32];
    size_t n = 0, i;
    int ok = d != NULL && cJSON_AddStringToObject(d, "spec", spec) != NULL &&
             cJSON_AddNumberToObject(d, "of", pr_sget_len(runs)) != NULL &&
             (list = cJSON_AddArrayToObject(d, PR_K_RUNS)) != NULL &&
             (missing = cJSON_AddArrayToObject(d, "missing")) != NULL;

    while (ok && next_word(&p, w, sizeof(w))) {
        long idx = run_of(summary, w);
        snprintf(why, sizeof(why), "%s%s%s",
                 is_rank_word(w, &(int64_t){0}) ? "rank " : "", w,
                 partial_word(summary, w) ? " of those here" : "");
        if (alone_word(summary, w))
            snprintf(why, sizeof(why), "the only rank with steps");
        else if (why_word(summary, w, why, sizeof(why)) != NULL)
            ; /* no slowest rank named: what the rank is */
        else if (strcmp(w, "slowest") == 0 &&
                 !isnan(
                     pr_sget_num(pr_sget(summary, PR_K_JOB), PR_K_LATE_RANK)))
            /* where the ranks wait for a late one, the longest step is
               the one that waited, not the slow rank (review 9) */
            snprintf(why, sizeof(why), "longest step%s",
                     partial_word(summary, w) ? " of those here" : "");
        if (idx < 0 || idx >= (long)pr_sget_len(runs)) {
            /* rank 0 of the default is "when there is one": only ranks
             * the user asked for are reported missing */
            if (strcmp(spec, PR_DETAIL_DEFAULT) != 0)
                ok = cJSON_AddItemToArray(missing, cJSON_CreateString(why));
        } else if (pr_sget_len(list) < 64) /* v[] below holds 64 */
            ok = note_run(list, runs, idx, why);
    }
    /* a memory timeline (torch.profiler's export_memory_timeline_raw) holds
       its curve alone, which a rank form drops: in full, whatever the
       words (issue #29) */
    n = 0;
    cJSON_ArrayForEach(e, runs)
    {
        if (ok && is_memtl_run(summary, e) && pr_sget_len(list) < 64)
            ok = note_run(list, runs, (long)n, "memory timeline");
        n++;
    }
    n = 0;
    /* in the summary's order, whatever the order of the words */
    while (ok && n < 64 && pr_sget_len(list) > 0)
        v[n++] = cJSON_DetachItemFromArray(list, 0);
    qsort(v, n, sizeof(*v), cmp_run);
    for (i = 0; i < n; i++)
        if (!cJSON_AddItemToArray(list, v[i]))
            ok = 0;
    if (!ok) {
        cJSON_Delete(d);
        return NULL;
    }
    return d;
}

static int
wants_all(const char *spec)
{
    const char *p = spec;
    char w[MAX_WORD];

    while (next_word(&p, w, sizeof(w)))
        if (strcmp(w, "all") == 0)
            return 1;
    return 0;
}

/* runs narrowed to the detail list (references). */
static int
add_runs(cJSON *view, const cJSON *summary, const cJSON *detail)
{
    const cJSON *runs = pr_sget(summary, PR_K_RUNS), *e;
    cJSON *a = cJSON_AddArrayToObject(view, PR_K_RUNS);
    long i = 0;

    if (a == NULL)
        return 0;
    cJSON_ArrayForEach(e, runs)
    {
        const cJSON *d;
        int keep = detail == NULL;
        cJSON_ArrayForEach(d, pr_sget(detail, PR_K_RUNS)) keep |=
            pr_sget_num(d, PR_K_RUN) == (double)i;
        if (keep && !cJSON_AddItemReferenceToArray(a, (cJSON *)(uintptr_t)e))
            return 0;
        i++;
    }
    return 1;
}

enum pr_status
pr_detail_view(const cJSON *summary, const char *spec, cJSON **view,
               struct pr_error *err)
{
    cJSON *v = cJSON_CreateObject(), *detail = NULL;
    const cJSON *m;
    enum pr_status st;
    int ok = v != NULL;

    *view = NULL;
    spec = spec != NULL ? spec : PR_DETAIL_DEFAULT;
    st = pr_detail_check(spec, err);
    if (st != PR_OK) {
        cJSON_Delete(v);
        return st;
    }
    if (ok && cJSON_IsObject(pr_sget(summary, PR_K_JOB)) && !wants_all(spec)) {
        detail = choose(summary, spec);
        ok = detail != NULL;
    }
    for (m = summary != NULL ? summary->child : NULL; ok && m != NULL;
         m = m->next)
        ok = strcmp(m->string, PR_K_RUNS) == 0
                 ? add_runs(v, summary, detail)
                 : cJSON_AddItemReferenceToObject(v, m->string,
                                                  (cJSON *)(uintptr_t)m);
    if (ok && detail != NULL)
        ok = cJSON_AddItemToObject(v, "detail", detail);
    else
        cJSON_Delete(detail);
    if (!ok) {
        cJSON_Delete(v);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    *view = v;
    return PR_OK;
}

void
pr_detail_world_words(const cJSON *job, char *buf, size_t n)
{
    double w = pr_sget_num(job, PR_K_WORLD_SIZE),
           least = pr_sget_num(job, PR_K_WORLD_SIZE_AT_LEAST);

    if (w > 0)
        snprintf(buf, n, "%.0f", w);
    else if (least > 0)
        snprintf(buf, n, "at least %.0f", least);
    else
        snprintf(buf, n, "more");
}

void
pr_detail_describe(const cJSON *view, char *buf, size_t n)
{
    const cJSON *d = pr_sget(view, "detail"), *e, *job;
    size_t len, k = 0;

    if (!cJSON_IsObject(d)) {
        snprintf(buf, n, "Every rank is shown in full below.");
        return;
    }
    job = pr_sget(view, PR_K_JOB);
    if (cJSON_IsFalse(pr_sget(job, PR_K_RANKS_COMPLETE))) {
        char world[48];

        pr_detail_world_words(job, world, sizeof(world));
        if ((double)pr_sget_len(pr_sget(d, PR_K_RUNS)) == pr_sget_num(d, "of"))
            snprintf(buf, n,
                     "Full detail below for every rank in this report (%.0f, "
                     "of %s in the job):",
                     pr_sget_num(d, "of"), world);
        else
            snprintf(buf, n,
                     "Full detail below for %zu of the %.0f ranks in this "
                     "report (of %s in the job; choose with --detail-ranks):",
                     pr_sget_len(pr_sget(d, PR_K_RUNS)), pr_sget_num(d, "of"),
                     world);
    } else
        snprintf(buf, n,
                 "Full detail below for %zu of %.0f ranks (choose with "
                 "--detail-ranks):",
                 pr_sget_len(pr_sget(d, PR_K_RUNS)), pr_sget_num(d, "of"));
    cJSON_ArrayForEach(e, pr_sget(d, PR_K_RUNS))
    {
        const char *why = pr_sget_str_or(e, "why", "");

        len = strlen(buf);
        if (why[0] != '\0')
            snprintf(buf + len, n - len, "%s %s (%s)", k++ ? "," : "",
                     pr_sget_str_or(e, PR_K_WORKER, "?"), why);
        else
            snprintf(buf + len, n - len, "%s %s", k++ ? "," : "",
                     pr_sget_str_or(e, PR_K_WORKER, "?"));
    }
    k = 0;
    cJSON_ArrayForEach(e, pr_sget(d, "missing"))
    {
        len = strlen(buf);
        snprintf(buf + len, n - len, "%s %s", k++ ? "," : "; not in this job:",
                 cJSON_IsString(e) ? e->valuestring : "?");
    }
    len = strlen(buf);
    snprintf(buf + len, n - len, ".");
}
