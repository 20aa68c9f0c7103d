/* job.c - the job view of a summary with several ranks (job.h): read
 * from the runs the summary already holds, so it needs no trace. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "profreport/job.h"
#include "profreport/keys.h"
#include "profreport/producer.h"
#include "profreport/rows.h"
#include "profreport/sget.h"

/* One run's figures for the per-rank table. */
struct rk {
    const cJSON *run;
    size_t idx;  /* position in runs[] */
    double mean; /* step_summary.mean_us, or the mean without a
                    warm-up first step; NAN unknown */
    double median, max, comm, steps;
    double run_mean; /* step_summary.mean_us: every step */
    int warmup;      /* its first step left out of mean (steady_mean) */
    int judged;      /* its own first step is a warm-up (steady_mean), not
                        left out by job_warmup's one rule alone */
    int has_steps;   /* step markers: more than one "capture" window */
    int in_spread;   /* counted in step_us (has_steps, or no rank has) */
};

static int
cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

/* The mean step of steps[] without the first where it is a warm-up: at
 * least three steps, the first over 1.5 times the median of the others,
 * and the others steady (none over 1.5 times their median).
 * cluster_4rank_pipeline: rank 2's first step 2.16 s (1.99 s of it the
 * first Receive), its others about 179 ms; with it, the rank's mean is
 * 576 ms and the job's spread 237%.  NAN when there is none. */
static double
steady_mean(const cJSON *steps)
{
    size_t n = (size_t)pr_sget_len(steps), i;
    double *d, first, med, sum = 0, out = NAN;
    int steady = 1;

    if (n < 3 || (d = malloc(n * sizeof(*d))) == NULL)
        return NAN;
    for (i = 0; i < n; i++)
        d[i] = pr_sget_num(cJSON_GetArrayItem(steps, (int)i), PR_K_DURATION_US);
    first = d[0];
    for (i = 1; i < n; i++)
        sum += d[i];
    qsort(d + 1, n - 1, sizeof(*d), cmp_dbl);
    med = (d[1 + (n - 2) / 2] + d[1 + (n - 1) / 2]) / 2.0;
    for (i = 1; i < n; i++)
        steady &= !isnan(d[i]) && d[i] <= 1.5 * med;
    if (steady && med > 0 && first > 1.5 * med)
        out = sum / (double)(n - 1);
    free(d);
    return out;
}

/* The mean of steps[] after the first (at least two steps); NAN when a
 * duration is not known. */
static double
tail_mean(const cJSON *steps)
{
    size_t n = (size_t)pr_sget_len(steps), i;
    double sum = 0;

    if (n < 2)
        return NAN;
    for (i = 1; i < n; i++)
        sum += pr_sget_num(cJSON_GetArrayItem(steps, (int)i), PR_K_DURATION_US);
    return sum / (double)(n - 1);
}

static int
cmp_mean(const void *a, const void *b)
{
    const struct rk *x = a, *y = b;

    if (x->mean != y->mean)
        return x->mean < y->mean ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Communication's share of the steps after the first, from each step's
 * breakdown: the share of the same steps the warm-up-free mean is over
 * (cluster_4rank_pipeline rank 2: its first step's 2.04 s Receive over
 * the other steps' mean read 251.9%).  NAN when a step has no breakdown. */
static double
steady_comm_pct(const cJSON *steps)
{
    double comm = 0, dur = 0;
    const cJSON *s;
    int first = 1;

    cJSON_ArrayForEach(s, steps)
    {
        double c = pr_sget_num(pr_sget(s, PR_K_BREAKDOWN_US),
                               PR_K_COMMUNICATION),
               d = pr_sget_num(s, PR_K_DURATION_US);
        if (first) {
            first = 0;
            continue;
        }
        if (isnan(c) || isnan(d))
            return NAN;
        comm += c;
        dur += d;
    }
    return dur > 0 ? 100.0 * comm / dur : NAN;
}

static void
read_rank(const cJSON *run, size_t idx, struct rk *r)
{
    const cJSON *ss = pr_sget(run, PR_K_STEP_SUMMARY);
    const cJSON *ph = pr_sget(run, PR_K_STEP_PHASES);
    const char *src = pr_sget_str_or(ph, PR_K_SOURCE, "");
    double comm =
        pr_sget_num(pr_sget(ss, PR_K_BREAKDOWN_US), PR_K_COMMUNICATION);
    double alone = pr_sget_num(pr_sget(ph, PR_K_MEAN),
                               PR_K_COMMUNICATION_NOT_OVERLAPPED_US);

    double steady = steady_mean(pr_sget(run, PR_K_STEPS));

    r->run = run;
    r->idx = idx;
    r->mean = pr_sget_num(ss, PR_K_MEAN_US);
    r->run_mean = r->mean;
    r->warmup = !isnan(steady);
    r->judged = r->warmup;
    if (r->warmup)
        r->mean = steady;
    r->median = pr_sget_num(ss, PR_K_MEDIAN_US);
    r->max = pr_sget_num(ss, PR_K_MAX_US);
    r->steps = (double)pr_sget_len(pr_sget(run, PR_K_STEPS));
    r->has_steps =
        r->steps > 1 ||
        (r->steps == 1 &&
         !pr_sget_is(
             pr_sget_str(cJSON_GetArrayItem(pr_sget(run, PR_K_STEPS), 0),
                         PR_K_NAME),
             "capture"));
    /* the share of the steps the mean is over */
    if (r->warmup)
        r->comm = steady_comm_pct(pr_sget(run, PR_K_STEPS));
    else {
        /* torch_npu's own step table where the rank has one, as the
           Distributed section's split (an export's task list may hold a
           fraction of the step: torch_npu/old2023's 3.5% against the
           table's 50%, third review finding 1) */
        if (!isnan(alone) && (strcmp(src, "step_trace_time.csv") == 0 ||
                              strcmp(src, "analysis.db StepTraceTime") == 0))
            comm = alone;
        r->comm = r->mean > 0 && !isnan(comm) ? 100.0 * comm / r->mean : NAN;
    }
    /* a rank whose trace holds no communication (no collective task or
       kernel, no link: runs[].communication absent) and no producer's
       table of it: its share is not known, not 0 (review 22a #10:
       MindSpore's fixtures, whose rank10 is a step table of Other only
       and rank1 ten operators' times, read "Communication 0.0%") */
    if (!cJSON_IsObject(pr_sget(run, PR_K_COMMUNICATION)) && isnan(alone))
        r->comm = NAN;
}

/* One warm-up rule for the job: where the first step is left out of
 * one rank's mean (steady_mean), it is left out of every rank's with step
 * markers, so that no rank's start-up, too small for steady_mean's 1.5x,
 * stands against the others' steady steps (review25a #6:
 * cluster_4rank_pipeline rank 1's first step 210 ms, its others 179 ms,
 * kept while ranks 2 and 3 lost their 2.2 s first steps: "spread 3.6%,
 * longest mean step rank1"; steps 2-5 of every rank 179.3-179.4 ms). */
static void
job_warmup(struct rk *v, size_t n)
{
    size_t i, any = 0;

    for (i = 0; i < n; i++)
        any += v[i].warmup && v[i].has_steps;
    for (i = 0; any > 0 && i < n; i++) {
        const cJSON *steps = pr_sget(v[i].run, PR_K_STEPS);
        double m = tail_mean(steps);

        if (v[i].warmup || !v[i].has_steps || isnan(v[i].mean) || isnan(m))
            continue;
        v[i].mean = m;
        v[i].warmup = 1;
        if (!isnan(v[i].comm))
            v[i].comm = steady_comm_pct(steps);
    }
}

/* Two workers or more: a job, not one process's several spans. */
static int
is_job(const cJSON *runs)
{
    const char *first = NULL, *w;
    const cJSON *r;

    cJSON_ArrayForEach(r, runs)
    {
        w = pr_sget_str_or(r, PR_K_WORKER, "");
        if (first == NULL)
            first = w;
        else if (strcmp(first, w) != 0)
            return 1;
    }
    return 0;
}

/* The job's row as its passes fill it, written once (build): its texts'
 * buffers and its tables, owned until then. */
struct job {
    struct pr_row_job row;
    const char *slow_worker; /* slowest_by_mean's worker; NULL: none */
    char late[3200], mixed[300];
    cJSON *slowest, *by_mean, *median, *kinds, *per_rank, *operators, *kernels,
        *heat_rows, *heat_steps, *heat_vals;
};

static void
job_free(struct job *j)
{
    cJSON_Delete(j->slowest);
    cJSON_Delete(j->by_mean);
    cJSON_Delete(j->median);
    cJSON_Delete(j->kinds);
    cJSON_Delete(j->per_rank);
    cJSON_Delete(j->operators);
    cJSON_Delete(j->kernels);
    cJSON_Delete(j->heat_rows);
    cJSON_Delete(j->heat_steps);
    cJSON_Delete(j->heat_vals);
}

/* A new array into *a; 0 when out of memory. */
static int
new_arr(cJSON **a)
{
    *a = cJSON_CreateArray();
    return *a != NULL;
}

/* {"run", "worker", "rank", "mean_us", "vs_median_pct"} of one rank, as
 * ro's row (job.slowest, slowest_by_mean or median: one shape). */
static cJSON *
rank_ref(enum pr_rows_object ro, const struct rk *r, double median)
{
    const cJSON *rank = pr_sget(r->run, PR_K_RANK);
    struct pr_row_job_slowest x = {
        .run = (int64_t)r->idx,
        .worker = pr_sget_str_or(r->run, PR_K_WORKER, ""),
        .rank = cJSON_IsNumber(rank) ? rank->valuedouble : NAN,
        .mean_us = r->mean,
        .vs_median_pct = median > 0 ? 100.0 * (r->mean - median) / median : NAN,
    };
    struct pr_row_job_slowest_by_mean y = {x.run,     x.worker,        x.rank,
                                           x.mean_us, x.vs_median_pct, 0};
    struct pr_row_job_median z = {x.run,     x.worker,        x.rank,
                                  x.mean_us, x.vs_median_pct, 0};

    return pr_rows_row(ro, ro == PR_RO_JOB_SLOWEST           ? (void *)&x
                           : ro == PR_RO_JOB_SLOWEST_BY_MEAN ? (void *)&y
                                                             : (void *)&z);
}

static void
per_rank(cJSON *a, const struct rk *v, size_t n, double median, int *ok)
{
    size_t i;

    for (i = 0; a != NULL && *ok && i < n; i++) {
        const cJSON *rank = pr_sget(v[i].run, PR_K_RANK);
        double med = v[i].in_spread ? median : NAN;
        /* run_mean_us: the run's own mean (its Overview, verdict and
           terminal line) counts every step: say what it is where the
           job's differs */
        struct pr_row_job_rank r = {
            (double)v[i].idx,
            pr_sget_str_or(v[i].run, PR_K_WORKER, ""),
            cJSON_IsNumber(rank) ? rank->valuedouble : NAN,
            v[i].mean,
            med > 0 ? 100.0 * (v[i].mean - med) / med : NAN,
            pr_sget_str_or(v[i].run, PR_K_SPAN, ""),
            v[i].steps,
            v[i].median,
            v[i].max,
            v[i].comm,
            v[i].warmup,
            v[i].has_steps,
            v[i].in_spread,
            v[i].run_mean,
            v[i].judged};
        *ok = pr_rows_write(a, PR_RO_JOB_PER_RANK, &r, 1);
    }
}

/* The rank the job's pipeline view names the slowest: the rank that
 * computes longest in the stage that computes longest (stages.c), when
 * the ranks' own files formed stages.  In a pipeline every rank's step is
 * about as long (the faster stages wait), so the step time does not tell
 * the slow stage.  Its index in sorted[], or m when there is none. */
static size_t
pipeline_slowest(const cJSON *summary, const struct rk *sorted, size_t m)
{
    const cJSON *p = pr_sget(pr_sget(summary, PR_K_DISTRIBUTED), PR_K_PIPELINE);
    const cJSON *s = cJSON_GetArrayItem(
        pr_sget(p, PR_K_STAGES), (int)pr_sget_long(p, PR_K_SLOWEST_STAGE, -1));
    double rank = pr_sget_num(s, PR_K_SLOWEST_RANK);
    size_t i;

    for (i = 0; !isnan(rank) && i < m; i++)
        if (pr_sget_num(sorted[i].run, PR_K_RANK) == rank)
            return i;
    return m;
}

/* Step time over ranks (each rank's mean step), the slowest and the
 * median rank.  `sorted` holds the ranks with a known mean, by mean. */
static void
distribution(struct job *j, const struct rk *sorted, size_t m, size_t slow,
             size_t marked, int *ok)
{
    double sum = 0, median = m > 0 ? sorted[(m - 1) / 2].mean : NAN;
    size_t i, warm = 0;
    int by_mean;

    for (i = 0; i < m; i++) {
        sum += sorted[i].mean;
        warm += sorted[i].warmup;
    }
    j->row.step_us = (struct pr_row_job_step_us){
        .ranks_with_steps = (int64_t)marked,
        .ranks_first_step_excluded = (int64_t)warm,
        .min_us = m > 0 ? sorted[0].mean : NAN,
        .median_us = median,
        .mean_us = m > 0 ? sum / (double)m : NAN,
        .max_us = m > 0 ? sorted[m - 1].mean : NAN,
        .spread_pct =
            m >= 2 && median > 0
                ? 100.0 * (sorted[m - 1].mean - sorted[0].mean) / median
                : NAN,
    };
    /* no basis: slowest, by mean and median null.  Ranks of captures
       alone (no step markers) compare profiler windows, not work
       (review 22g #6: nsys_before's "slowest" rank was 7.7 us of 300 ms
       longer, and the other one in nsys_after); and a slowest rank by
       mean step is named only when the means differ by the noise floor
       (PR_JOB_SPREAD_FLOOR_PCT) or more: the ranks of one synchronous
       job end each step together at its collectives, so a smaller
       difference is where each rank's own step markers fall */
    if (m == 0 || marked == 0 ||
        (slow >= m && m >= 2 &&
         !(j->row.step_us.spread_pct >= PR_JOB_SPREAD_FLOOR_PCT))) {
        pr_rows_omit(PR_RO_JOB, &j->row, PR_SR_JOB_PR_K_SLOWEST_BASIS);
        pr_rows_omit(PR_RO_JOB, &j->row, PR_SR_JOB_PR_K_SLOWEST_BY);
        if (m == 0 || marked == 0)
            return;
        j->median = rank_ref(PR_RO_JOB_MEDIAN, &sorted[(m - 1) / 2], median);
        *ok = *ok && j->median != NULL;
        j->row.median = j->median;
        return;
    }
    j->row.slowest_basis = slow < m
                               ? "the slowest rank of the slowest pipeline "
                                 "stage (distributed.pipeline: Computing)"
                               : "mean step time";
    j->row.slowest_by = slow < m ? "pipeline_stage" : "mean_step";
    j->slowest =
        rank_ref(PR_RO_JOB_SLOWEST, &sorted[slow < m ? slow : m - 1], median);
    /* a longest mean step under the noise floor names no rank beside
       the pipeline's (review25a #6) */
    by_mean = slow >= m || j->row.step_us.spread_pct >= PR_JOB_SPREAD_FLOOR_PCT;
    if (by_mean)
        j->by_mean =
            rank_ref(PR_RO_JOB_SLOWEST_BY_MEAN, &sorted[m - 1], median);
    j->median = rank_ref(PR_RO_JOB_MEDIAN, &sorted[(m - 1) / 2], median);
    j->slow_worker = pr_sget_str_or(sorted[m - 1].run, PR_K_WORKER, "");
    *ok = *ok && j->slowest != NULL && j->median != NULL &&
          (j->by_mean != NULL || !by_mean);
    j->row.slowest = j->slowest;
    j->row.slowest_by_mean = j->by_mean;
    j->row.median = j->median;
}

/* Whether the job's every rank is here, from the distributed view
 * (distributed.c emit_coverage): with 2 of 8 ranks the slowest of these
 * is no straggler, and the reports must say so wherever they would name
 * one (review-2 finding 9).  true, false or null (not known). */
static void
coverage(struct job *j, const cJSON *summary)
{
    const cJSON *d = pr_sget(summary, PR_K_DISTRIBUTED);
    const cJSON *c = pr_sget(d, PR_K_RANKS_COMPLETE);
    const char *note = pr_sget_str(d, PR_K_COVERAGE_NOTE);

    j->row.ranks_complete = cJSON_IsBool(c) ? cJSON_IsTrue(c) : -1;
    j->row.world_size = pr_sget_num(d, PR_K_WORLD_SIZE);
    j->row.world_size_at_least = pr_sget_num(d, PR_K_WORLD_SIZE_AT_LEAST);
    /* distributed's, the late-rank clause in it (pr_job_late_clause) */
    j->row.coverage_note = note;
}

/* The rank the others wait for, as msprof-analyze names a slow rank
 * (its SlowRankCalculator: in a collective the rank with the least wait
 * is the one "with a lot longer computation time than other ranks";
 * its Synchronization is the Notify Wait before the first transfer):
 * each run's critical path names the rank whose notify came last in its
 * peer-bound collectives' Synchronization (peer_wait_rank, HCCL's dst
 * rank).  The rank most runs name, the longer wait first on a tie; null
 * where no run names one (a rank that waits on no peer, an export
 * without HCCL's ranks).  The step-time "slowest" stays: where the
 * ranks wait for a late peer, the slowest step is the one that waited
 * longest, not the rank to look at (review 8 finding 2). */
#define LATE_MAX 64
/* collectives named in the NCCL late-rank note (nccl_late_in) */
#define LATE_GROUPS 32

double
pr_job_wait_for(const cJSON *run, double rank)
{
    const cJSON *w;

    cJSON_ArrayForEach(w, pr_sget(pr_sget(run, PR_K_LATE_PEER), PR_K_WAITS))
    {
        if (pr_sget_num(w, PR_K_RANK) == rank)
            return pr_sget_num(w, PR_K_WAIT_US);
    }
    return NAN;
}

double
pr_job_wait_besides(const cJSON *run, double a, double b, double *rank)
{
    const cJSON *w;
    double best = 0;

    *rank = -1;
    cJSON_ArrayForEach(w, pr_sget(pr_sget(run, PR_K_LATE_PEER), PR_K_WAITS))
    {
        double r = pr_sget_num(w, PR_K_RANK), v = pr_sget_num(w, PR_K_WAIT_US);

        if (r != a && r != b && v > best) {
            best = v;
            *rank = r;
        }
    }
    return best;
}

double
pr_job_next_wait(const cJSON *run, double late, double *rank)
{
    return pr_job_wait_besides(run, late, late, rank);
}

/* 1 when a run of runs is rank r. */
static int
in_runs(const cJSON *runs, double r)
{
    const cJSON *x;

    cJSON_ArrayForEach(x, runs)
    {
        if (pr_sget_num(x, PR_K_RANK) == r)
            return 1;
    }
    return 0;
}

/* The ranks here that waited for each other: "Of the ranks here, B
 * arrived last: A waited 5.62 ms for it there" for the longest such wait
 * (of 100 us or more), with whether A has the longest step; "" when
 * none. */
static void
among_here(const struct job *j, const cJSON *runs, char *buf, size_t cap)
{
    const cJSON *a, *b, *wa = NULL, *wb = NULL;
    double best = 100.0;
    const char *slow = j->slow_worker;

    buf[0] = '\0';
    cJSON_ArrayForEach(a, runs)
    {
        cJSON_ArrayForEach(b, runs)
        {
            double w =
                a == b ? NAN : pr_job_wait_for(a, pr_sget_num(b, PR_K_RANK));

            if (!isnan(w) && w >= best) {
                best = w;
                wa = a;
                wb = b;
            }
        }
    }
    if (wa == NULL)
        return;
    snprintf(buf, cap,
             " Of the ranks here, %s arrived last: %s waited %.2f ms for it "
             "before the first transfer of %s%s.",
             pr_sget_str_or(wb, PR_K_WORKER, "?"),
             pr_sget_str_or(wa, PR_K_WORKER, "?"), best / 1e3,
             pr_sget_str_or(pr_sget(wa, PR_K_LATE_PEER), PR_K_NAME, "?"),
             slow != NULL &&
                     strcmp(slow, pr_sget_str_or(wa, PR_K_WORKER, "")) == 0
                 ? " (the rank with the longest step here is the one that "
                   "waited)"
                 : "");
}

/* The late rank's group partner (late_peer.group_rank) where every run
 * that names rank late as its late rank names the same one; else -1. */
static long
group_of(const cJSON *runs, long late)
{
    const cJSON *r;
    long gp = -1;

    cJSON_ArrayForEach(r, runs)
    {
        const cJSON *lp = pr_sget(r, PR_K_LATE_PEER);
        double g = pr_sget_num(lp, PR_K_GROUP_RANK);

        if (pr_sget_num(lp, PR_K_RANK) != (double)late)
            continue;
        if (isnan(g) || (gp >= 0 && (double)gp != g))
            return -1;
        gp = (long)g;
    }
    return gp;
}

/* The runs' votes: who[i] the rank run i's late_peer names (-1: none),
 * wait[i] its peer wait; *n runs read.  The index of the rank most runs
 * name, the longer wait first on a tie; LATE_MAX where none is named. */
static size_t
late_vote(const cJSON *runs, long *who, double *wait, size_t *pn)
{
    double vote_wait[LATE_MAX];
    size_t n = 0, votes[LATE_MAX], i, best = LATE_MAX;
    const cJSON *r;

    cJSON_ArrayForEach(r, runs)
    {
        const cJSON *lp = pr_sget(r, PR_K_LATE_PEER);
        double pr = pr_sget_num(lp, PR_K_RANK);

        if (n >= LATE_MAX)
            break;
        who[n] = isnan(pr) ? -1 : (long)pr;
        wait[n] = pr_sget_num(lp, PR_K_PEER_WAIT_US);
        n++;
    }
    for (i = 0; i < n; i++) {
        size_t j;

        votes[i] = 0;
        vote_wait[i] = 0.0;
        for (j = 0; who[i] >= 0 && j < n; j++)
            if (who[j] == who[i]) {
                votes[i]++;
                vote_wait[i] += isnan(wait[j]) ? 0.0 : wait[j];
            }
        if (votes[i] > 0 &&
            (best == LATE_MAX || votes[i] > votes[best] ||
             (votes[i] == votes[best] && vote_wait[i] > vote_wait[best])))
            best = i;
    }
    *pn = n;
    return best;
}

/* Review 20 #7: the producer's split of the operation a rank waited in,
 * beside the Notify Wait summed from its tasks, which it does not count
 * as Wait: its type's row of communication.json (runs[].hccl.ops, the
 * one of the most Idle whose name begins the task's), in text; 0 when
 * the run has none. */
static int
producer_split(const cJSON *run, double late, char *text, size_t cap)
{
    const char *name = pr_sget_str(pr_sget(run, PR_K_LATE_PEER), PR_K_NAME);
    const cJSON *o, *best = NULL;

    cJSON_ArrayForEach(o, pr_sget(pr_sget(run, PR_K_HCCL), PR_K_OPS))
    {
        const char *type = pr_sget_str(o, PR_K_NAME);

        if (name != NULL && type != NULL && type[0] != '\0' &&
            strncmp(name, type, strlen(type)) == 0 &&
            pr_sget_num(o, PR_K_IDLE_US) >= 0 &&
            pr_sget_num(o, PR_K_WAIT_US) >= 0 &&
            (best == NULL ||
             pr_sget_num(o, PR_K_IDLE_US) > pr_sget_num(best, PR_K_IDLE_US)))
            best = o;
    }
    if (best == NULL)
        return 0;
    snprintf(text, cap,
             ". The producer's own split (%s), which msprof-analyze and "
             "MindStudio Insight show, puts %s's %.0f %s call%s at Wait "
             "%.2f ms and Idle %.2f ms (Elapse - Transit - Wait): it counts "
             "the Notify Waits of the plane tasks, this wait for rank %.0f "
             "among them, as Idle, not as Wait",
             pr_sget_str_or(pr_sget(run, PR_K_HCCL), PR_K_SOURCE,
                            "the producer's communication analysis"),
             pr_sget_str_or(run, PR_K_WORKER, "?"),
             pr_sget_num(best, PR_K_CALLS), pr_sget_str(best, PR_K_NAME),
             pr_sget_num(best, PR_K_CALLS) == 1 ? "" : "s",
             pr_sget_num(best, PR_K_WAIT_US) / 1e3,
             pr_sget_num(best, PR_K_IDLE_US) / 1e3, late);
    return 1;
}

static void
late_rank(struct job *jb, const cJSON *runs)
{
    long who[LATE_MAX];
    double wait[LATE_MAX];
    size_t n, i, best = late_vote(runs, who, wait, &n);
    const cJSON *r;
    int here = 0;
    long gp;
    char *text = jb->late, part[600], tail[400], split[400] = "";
    const size_t cap = sizeof(jb->late);
    size_t len;

    jb->row.late_rank = NAN;
    jb->row.late_rank_in_report = -1;
    jb->row.late_rank_note = NULL;
    jb->row.late_rank_with = NAN;
    if (best == LATE_MAX)
        return;
    cJSON_ArrayForEach(r, runs)
    {
        here |= pr_sget_num(r, PR_K_RANK) == (double)who[best];
    }
    len = (size_t)snprintf(
        text, cap,
        "rank %ld%s, the rank the others wait for: in the longest collective "
        "on each rank's binding chain whose HCCL Notify Wait covers half its "
        "time or more, of the waits begun before its first transfer between "
        "ranks (msprof-analyze's Synchronization), the one that ended last "
        "was for rank %ld:",
        who[best], here ? "" : " (not in this report)", who[best]);
    i = 0;
    cJSON_ArrayForEach(r, runs)
    {
        double w = pr_job_wait_for(r, (double)who[best]);

        if (i >= n)
            break;
        if (who[i] == who[best] && !isnan(w) && len < cap) {
            char next[200] = "", alone[400] = "";
            double nr, nw = pr_job_next_wait(r, (double)who[best], &nr);
            const cJSON *lp = pr_sget(r, PR_K_LATE_PEER);
            double a = pr_sget_num(lp, PR_K_ALONE_US),
                   g = pr_sget_num(lp, PR_K_GROUP_US),
                   gr = pr_sget_num(lp, PR_K_GROUP_RANK);

            /* the next-latest peer: what this rank still waits with the
               late rank alone on time (review 9 #1: CANN 6's rank 3, 3.1
               ms before rank 2) */
            if (nw >= 1000.0)
                snprintf(next, sizeof(next), ", and %.2f ms for rank %.0f%s",
                         nw / 1e3, nr,
                         in_runs(runs, nr) ? "" : ", also missing");
            /* over every peer-bound collective on its chain, not the
               longest alone (review 10 #1: text_level1's _3_1 waits 22 ms
               for rank 5 too) */
            if (a > 0 && g > 0) /* review 11 #3: CANN 6's ranks 2, 3 */
                snprintf(alone, sizeof(alone),
                         ": ranks %ld and %.0f on time save it about %.2f ms "
                         "a step (late_peer.group_us; rank %ld alone %.2f "
                         "ms), its waits for other ranks as measured",
                         who[best], gr, g / 1e3, who[best], a / 1e3);
            else if (a > 0)
                snprintf(alone, sizeof(alone),
                         ": rank %ld alone on time saves it about %.2f ms a "
                         "step (late_peer.alone_us), its waits for other "
                         "ranks as measured",
                         who[best], a / 1e3);
            if (pr_sget_run_first_iteration_only(r) && alone[0] != '\0')
                /* review 31 #6: one first iteration shows no recurrence */
                snprintf(alone, sizeof(alone),
                         ": with %s on time that step would be %.2f ms "
                         "shorter (late_peer.%s), but it is the program's "
                         "first iteration, %s: whether the wait recurs is "
                         "not known",
                         g > 0 ? "both" : "it", (g > 0 ? g : a) / 1e3,
                         g > 0 ? "group_us" : "alone_us",
                         /* issue #30: the step trace times the others */
                         pr_sget_str(r, PR_K_ITERATIONS_NOTE) != NULL
                             ? "the only one whose tasks its timeline "
                               "export holds (msprof's step trace times "
                               "the later ones: see its verdict)"
                             : "the only step captured");
            if (pr_sget_num(lp, PR_K_FIRST_STEP_PCT) >= 80.0)
                /* hunt30 #2: a warm-up's wait is no wait a step */
                snprintf(part, sizeof(part),
                         "%s %s waited %.2f ms for it in %s in the first "
                         "step only (a warm-up; %.0f%% of its Notify Wait "
                         "for late ranks on the path)%s",
                         text[len - 1] == ':' ? "" : ";",
                         pr_sget_str_or(r, PR_K_WORKER, "?"), w / 1e3,
                         pr_sget_str_or(lp, PR_K_NAME, "?"),
                         pr_sget_num(lp, PR_K_FIRST_STEP_PCT), next);
            else
                snprintf(part, sizeof(part),
                         "%s %s waited %.2f ms for it in %s (%.2f ms a step "
                         "in Notify Wait in all)%s%s",
                         text[len - 1] == ':' ? "" : ";",
                         pr_sget_str_or(r, PR_K_WORKER, "?"), w / 1e3,
                         pr_sget_str_or(lp, PR_K_NAME, "?"), wait[i] / 1e3,
                         next, alone);
            len += (size_t)snprintf(text + len, cap - len, "%s", part);
            /* said once, for the first rank communication.json splits */
            if (split[0] == '\0')
                producer_split(r, (double)who[best], split, sizeof(split));
        }
        i++;
    }
    if (split[0] != '\0' && len < cap)
        len += (size_t)snprintf(text + len, cap - len, "%s", split);
    among_here(jb, runs, tail, sizeof(tail));
    gp = group_of(runs, who[best]);
    if (len < cap && gp >= 0)
        /* review 11 #3: the two came close together, so neither alone is
           the one to look at */
        snprintf(text + len, cap - len,
                 ".%s As msprof's slow-rank analysis reads such waits (\"the "
                 "ranks are not synchronized\"), the ranks that wait least "
                 "have the longer computation: rank %ld and rank %ld, whose "
                 "notifies came close together%s; look at both (their "
                 "steps, their data loaders) first, not at the steps of the "
                 "ranks that waited.",
                 tail, who[best], gp,
                 here && in_runs(runs, (double)gp) ? ""
                 : here || in_runs(runs, (double)gp)
                     ? " (one of them not in this report)"
                     : " (neither in this report)");
    else if (len < cap)
        snprintf(text + len, cap - len,
                 ".%s As msprof's slow-rank analysis reads such waits (\"the "
                 "ranks are not synchronized\"), the rank that waits least "
                 "has the longer computation%s: %s",
                 tail,
                 pr_sget_runs_late_first_step_only(runs)
                     ? " in that first step (a warm-up; in the steps after "
                       "it no collective on the ranks' paths spends half its "
                       "time waiting for a late rank)"
                     : "",
                 here ? "its own step or data loader is what to look at "
                        "first, not the steps of the ranks that waited."
                      : "it is one of the ranks not in this report; profile "
                        "it (its step, its data loader) first.");
    jb->row.late_rank = (double)who[best];
    jb->row.late_rank_in_report = here;
    jb->row.late_rank_note = text;
    jb->row.late_rank_with = gp >= 0 ? (double)gp : NAN;
}

/* ---- NCCL's late rank: its kernels paired across ranks of one clock */

/* Ranks of one clock: where their paired kernels' ends agree within
 * this (us) in NCLK_AGREE of the calls (nsys_before: 4-27 us; two
 * Kineto ranks of unsynchronised hosts: up to 134 ms). */
#define NCLK_END_US 50.0
#define NCLK_AGREE 0.9
#define NCLK_MIN_CALLS 5
/* a late rank named where the others' wait for it is this much (us) and
   half again the next rank's */
#define NCLK_MIN_WAIT_US 500.0

/* One run's pairing figures (us, summed over the paired calls). */
struct nrank {
    const cJSON *kt; /* communication.kernel_times */
    double clock;
    double own;    /* its kernels' time */
    double wait;   /* its start to the last rank's start */
    double caused; /* the others' wait in the calls it started last */
    size_t last;   /* calls it started last in, by more than NCLK_END_US */
    double *cw;    /* its wait in each paired call (NULL: not kept) */
    size_t cn, ccap;
};

/* Keep a run's wait in one more call (on no memory: none kept). */
static void
keep_wait(struct nrank *r, double w)
{
    if (r->cn == (size_t)-1)
        return; /* out of memory before: none kept */
    if (r->cn == r->ccap) {
        size_t cap = r->ccap ? 2 * r->ccap : 64;
        double *p = realloc(r->cw, cap * sizeof(*p));

        if (p == NULL) {
            free(r->cw);
            r->cw = NULL;
            r->cn = r->ccap = (size_t)-1;
            return;
        }
        r->cw = p;
        r->ccap = cap;
    }
    r->cw[r->cn++] = w;
}

/* The fewest calls that hold 80% of a run's wait: their count, and in
 * *pct the share they hold; 0 when the calls were not kept. */
static size_t
wait_held(struct nrank *r, double *pct)
{
    double sum = 0, got = 0;
    size_t i, m = 0;

    if (r->cw == NULL || r->cn == 0 || r->cn == (size_t)-1)
        return 0;
    for (i = 0; i < r->cn; i++)
        sum += r->cw[i];
    if (!(sum > 0))
        return 0;
    qsort(r->cw, r->cn, sizeof(*r->cw), cmp_dbl);
    for (i = r->cn; i-- > 0 && got < 0.8 * sum;) {
        got += r->cw[i];
        m++;
    }
    *pct = 100.0 * got / sum;
    return m;
}

/* The group named name in kernel_times kt (NULL: none). */
static const cJSON *
kt_group(const cJSON *kt, const char *name)
{
    const cJSON *g;

    cJSON_ArrayForEach(g, pr_sget(kt, PR_K_GROUPS))
    {
        if (pr_sget_is(pr_sget_str(g, PR_K_NAME), name))
            return g;
    }
    return NULL;
}

/* The rooted collectives, whose root may end before its peers start. */
static const char *const rooted_kinds[] = {"broadcast", "reduce"};

static int
is_rooted(const char *name)
{
    size_t i;

    for (i = 0; i < sizeof(rooted_kinds) / sizeof(rooted_kinds[0]); i++)
        if (strcmp(name, rooted_kinds[i]) == 0)
            return 1;
    return 0;
}

/* Pair one collective's kernels of the n runs by order (its calls as
 * many on every run, else none paired): into v, and *calls, *agree
 * (calls whose ends agree), *names; 0 when not paired. */
static int
pair_group(struct nrank *v, size_t n, const char *name, size_t *calls,
           size_t *agree)
{
    const cJSON *ps[LATE_MAX], *pe[LATE_MAX]; /* each run's next call */
    size_t k, i, m = 0;

    /* a rooted collective's kernels need not end together: the root of
       a broadcast finishes once its data is sent (issue #29 review: a
       CS336 DDP export, the root's 1.2 MB broadcast ending 518 us before
       its peer's, its first one before the peer had launched), so its
       ends tell nothing of a shared clock, nor its starts of a wait */
    if (name == NULL || is_rooted(name))
        return 0;
    for (k = 0; k < n; k++) {
        const cJSON *g = kt_group(v[k].kt, name);

        if (g == NULL)
            return 0;
        if (k == 0)
            m = pr_sget_len(pr_sget(g, PR_K_START_US));
        if (pr_sget_len(pr_sget(g, PR_K_START_US)) != m ||
            pr_sget_len(pr_sget(g, PR_K_END_US)) != m)
            return 0;
        ps[k] = pr_sget(g, PR_K_START_US)->child;
        pe[k] = pr_sget(g, PR_K_END_US)->child;
    }
    for (i = 0; i < m; i++) {
        double last = -INFINITY, elo = INFINITY, ehi = -INFINITY, s[LATE_MAX];
        double second = -INFINITY;
        size_t who = 0;

        for (k = 0; k < n; k++) {
            double e;

            if (!cJSON_IsNumber(ps[k]) || !cJSON_IsNumber(pe[k]))
                return 0;
            s[k] = v[k].clock + ps[k]->valuedouble;
            e = v[k].clock + pe[k]->valuedouble;
            ps[k] = ps[k]->next;
            pe[k] = pe[k]->next;
            if (s[k] > last) {
                second = last;
                last = s[k];
                who = k;
            } else if (s[k] > second) {
                second = s[k];
            }
            elo = e < elo ? e : elo;
            ehi = e > ehi ? e : ehi;
            v[k].own += e - s[k];
        }
        for (k = 0; k < n; k++) {
            v[k].wait += last - s[k];
            v[who].caused += last - s[k];
            keep_wait(&v[k], last - s[k]);
        }
        /* review31 #7: a start later by no more than the clocks agree
           (nsys_after: 14-54 us in 6 of gpu0's "15 of 31") is no lateness */
        v[who].last += last - second > NCLK_END_US;
        *agree += ehi - elo <= NCLK_END_US;
        (*calls)++;
    }
    return m > 0;
}

/* The rank a run is, in words: its worker. */
static const char *
nrank_name(const cJSON *const *rv, size_t k)
{
    return pr_sget_str_or(rv[k], PR_K_WORKER, "?");
}

/* Where the skew of a rooted collective's first calls (first[k], each
 * rank's) arises: from the last collective of another kind that every
 * rank ended before it, within the clocks' agreement, to the first call
 * (issue #29 review: ddp53's ranks end their last all-reduce together,
 * then rank 1 takes 1,010 ms to its first broadcast, rank 0 877 ms).
 * Without such a collective, the late rank's host before the call. */
static size_t
rooted_anchor(const struct nrank *v, const cJSON *const *rv, size_t n,
              const char *rooted, const double *first, size_t late,
              size_t early, char *buf, size_t cap, size_t len)
{
    double end[LATE_MAX], lo = INFINITY, hi = -INFINITY;
    const char *name[LATE_MAX];
    size_t k;

    for (k = 0; k < n; k++) {
        const cJSON *g;

        end[k] = -INFINITY;
        name[k] = NULL;
        cJSON_ArrayForEach(g, pr_sget(v[k].kt, PR_K_GROUPS))
        {
            const char *gn = pr_sget_str(g, PR_K_NAME);
            const cJSON *e;

            if (gn == NULL || is_rooted(gn))
                continue;
            cJSON_ArrayForEach(e, pr_sget(g, PR_K_END_US))
            {
                double x = v[k].clock + e->valuedouble;

                if (cJSON_IsNumber(e) && x <= first[k] && x > end[k]) {
                    end[k] = x;
                    name[k] = gn;
                }
            }
        }
        if (name[k] == NULL || (k > 0 && strcmp(name[k], name[0]) != 0))
            break;
        lo = end[k] < lo ? end[k] : lo;
        hi = end[k] > hi ? end[k] : hi;
    }
    if (k < n || hi - lo > NCLK_END_US)
        return pr_append(buf, cap, len,
                         " Look at what %s's host runs before "
                         "its first %s.",
                         nrank_name(rv, late), rooted);
    return pr_append(
        buf, cap, len,
        " The ranks end their last %s before it within %.0f us of each "
        "other; from there %s takes %.2f ms to its first %s, %s %.2f ms: "
        "the skew arises on %s between the two. Look at what its host runs "
        "there.",
        name[0], NCLK_END_US, nrank_name(rv, late),
        (first[late] - end[late]) / 1e3, rooted, nrank_name(rv, early),
        (first[early] - end[early]) / 1e3, nrank_name(rv, late));
}

/* A rooted collective's entry (issue #29 review: ddp53's rank 0 spends
 * 132.3 ms in one broadcast while rank 1 starts up): pair_group leaves
 * broadcasts and reduces out, since a root may end before its peers
 * start, but where the ranks share a clock their first calls still say
 * when each rank entered.  For the rooted collective whose first calls
 * lie furthest apart (by at least NCLK_MIN_WAIT_US), the time each rank's
 * kernels of it ran before the last rank's first one started: no peer
 * had joined, so that is waiting.  Into buf from len; len where none. */
static size_t
rooted_entry(const struct nrank *v, const cJSON *const *rv, size_t n, char *buf,
             size_t cap, size_t len)
{
    double first[LATE_MAX], best_first[LATE_MAX],
        best_skew = 0, best_wait[LATE_MAX], best_own[LATE_MAX];
    size_t r, k, i, late = 0, early = 0;
    const char *best = NULL;
    int first_coll = 0;

    for (r = 0; r < sizeof(rooted_kinds) / sizeof(rooted_kinds[0]); r++) {
        double last = -INFINITY, lo = INFINITY, wait[LATE_MAX], own[LATE_MAX];
        size_t kl = 0, ke = 0;
        int all_first = 1;

        for (k = 0; k < n; k++) {
            const cJSON *g = kt_group(v[k].kt, rooted_kinds[r]), *h;
            const cJSON *s0 = pr_sget(g, PR_K_START_US);

            if (g == NULL || !cJSON_IsNumber(cJSON_GetArrayItem(s0, 0)))
                break;
            first[k] = v[k].clock + cJSON_GetArrayItem(s0, 0)->valuedouble;
            if (first[k] > last) {
                last = first[k];
                kl = k;
            }
            if (first[k] < lo) {
                lo = first[k];
                ke = k;
            }
            /* the first collective of the rank's capture */
            cJSON_ArrayForEach(h, pr_sget(v[k].kt, PR_K_GROUPS))
            {
                const cJSON *x =
                    cJSON_GetArrayItem(pr_sget(h, PR_K_START_US), 0);

                if (h != g && cJSON_IsNumber(x) &&
                    v[k].clock + x->valuedouble < first[k])
                    all_first = 0;
            }
        }
        if (k < n || !(last - lo >= NCLK_MIN_WAIT_US) ||
            !(last - lo > best_skew))
            continue;
        for (k = 0; k < n; k++) {
            const cJSON *g = kt_group(v[k].kt, rooted_kinds[r]);
            const cJSON *sa = pr_sget(g, PR_K_START_US);
            const cJSON *ea = pr_sget(g, PR_K_END_US);
            /* a saved summary's group may lack its ends: none counted */
            const cJSON *s = sa != NULL ? sa->child : NULL;
            const cJSON *e = ea != NULL ? ea->child : NULL;

            wait[k] = own[k] = 0;
            for (; cJSON_IsNumber(s) && cJSON_IsNumber(e);
                 s = s->next, e = e->next) {
                double a = v[k].clock + s->valuedouble;
                double b = v[k].clock + e->valuedouble;

                own[k] += b - a;
                if (a < last)
                    wait[k] += (b < last ? b : last) - a;
            }
        }
        best = rooted_kinds[r];
        best_skew = last - lo;
        late = kl;
        early = ke;
        first_coll = all_first;
        memcpy(best_first, first, n * sizeof(*first));
        memcpy(best_wait, wait, n * sizeof(*wait));
        memcpy(best_own, own, n * sizeof(*own));
    }
    if (best == NULL)
        return len;
    len = pr_append(buf, cap, len,
                    " Broadcasts and reduces are not paired that way: a root "
                    "may end before its peers start. Their first calls say "
                    "when each rank entered: %s starts its first %s %.2f ms "
                    "after %s does. Until then, with no peer in them,",
                    nrank_name(rv, late), best, best_skew / 1e3,
                    nrank_name(rv, early));
    for (k = 0, i = 0; k < n; k++)
        if (k != late && best_wait[k] >= NCLK_MIN_WAIT_US)
            len = pr_append(buf, cap, len,
                            "%s %s spends %.2f ms of its %.2f ms in %s "
                            "kernels",
                            i++ ? ";" : "", nrank_name(rv, k),
                            best_wait[k] / 1e3, best_own[k] / 1e3, best);
    len = pr_append(buf, cap, len,
                    ": a one-time wait at entry, not one repeated each call%s.",
                    first_coll ? " (it is the first collective of every "
                                 "rank's capture: the ranks' start-up)"
                               : "");
    return rooted_anchor(v, rv, n, best, best_first, late, early, buf, cap,
                         len);
}

/* Issue #29, review 30g #4: NCCL records no wait inside its kernels, so
 * a rank that enters a collective early spends the time until the last
 * rank enters inside its kernel, and its communication time is the
 * larger one though it is the rank on time.  Where the runs' NCCL/RCCL
 * kernels (communication.kernel_times) pair by order within each
 * collective and their ends agree (one clock: the ranks of one Nsight
 * file, or Kineto ranks of synchronised hosts; nothing is said where
 * they do not), each rank's time splits into its wait (its kernel's
 * start to the last rank's start) and its transfer (from there to its
 * end), as msprof-analyze splits a collective into Wait Time and Transit
 * Time; the rank that starts last where the others wait longest is the
 * late rank. */
static void
nccl_late_in(struct job *jb, const cJSON *runs, struct nrank *v)
{
    const cJSON *rv[LATE_MAX], *r, *g;
    size_t n = 0, k, best = 0, next = LATE_MAX, calls = 0, agree = 0, len;
    size_t waiter = LATE_MAX, held = 0;
    char *text = jb->late, names[200] = "", others[300] = "";
    const size_t cap = sizeof(jb->late);
    size_t nlen = 0, olen = 0, ng = 0, gcalls[LATE_GROUPS];
    const char *gname[LATE_GROUPS];
    double pct = 0;
    int sporadic;

    if (jb->row.late_rank_note != NULL)
        return;
    cJSON_ArrayForEach(r, runs)
    {
        const cJSON *kt =
            pr_sget(pr_sget(r, PR_K_COMMUNICATION), PR_K_KERNEL_TIMES);

        if (n >= LATE_MAX || !cJSON_IsObject(kt) ||
            isnan(pr_sget_num(kt, PR_K_CLOCK_US)))
            return; /* every run, or none */
        memset(&v[n], 0, sizeof(v[n]));
        v[n].kt = kt;
        v[n].clock = pr_sget_num(kt, PR_K_CLOCK_US);
        rv[n++] = r;
    }
    if (n < 2)
        return;
    /* each collective with its paired calls, the most first (review s20:
       "(send_recv, all_to_all)" read as even; nsys_before pairs 32
       all_to_all and 1 send_recv calls) */
    cJSON_ArrayForEach(g, pr_sget(v[0].kt, PR_K_GROUPS))
    {
        const char *name = pr_sget_str(g, PR_K_NAME);
        size_t before = calls;

        if (name != NULL && pair_group(v, n, name, &calls, &agree) &&
            ng < LATE_GROUPS) {
            gname[ng] = name;
            gcalls[ng++] = calls - before;
        }
    }
    for (k = 0; k < ng; k++) {
        size_t i, top = k;

        for (i = k + 1; i < ng; i++)
            if (gcalls[i] > gcalls[top])
                top = i;
        if (top != k) {
            const char *tn = gname[k];
            size_t tc = gcalls[k];

            gname[k] = gname[top];
            gcalls[k] = gcalls[top];
            gname[top] = tn;
            gcalls[top] = tc;
        }
        nlen = pr_append(names, sizeof(names), nlen, "%s%zu %s",
                         nlen ? ", " : "", gcalls[k], gname[k]);
    }
    if (calls < NCLK_MIN_CALLS || (double)agree < NCLK_AGREE * (double)calls)
        return; /* too few, or clocks that do not agree: nothing said */
    for (k = 1; k < n; k++)
        if (v[k].caused > v[best].caused)
            best = k;
    for (k = 0; k < n; k++)
        if (k != best && (next == LATE_MAX || v[k].caused > v[next].caused))
            next = k;
    if (v[best].caused < NCLK_MIN_WAIT_US ||
        (next != LATE_MAX && v[best].caused < 1.5 * v[next].caused)) {
        /* no late rank; a rooted collective's entry may still be said */
        len = (size_t)snprintf(
            text, cap,
            "No rank starts late: the %zu ranks here start their collective "
            "kernels together (paired by order within each collective: %s; "
            "their ends agree within %.0f us in %zu of the %zu calls, so the "
            "ranks share a clock).",
            n, names, NCLK_END_US, agree, calls);
        if (rooted_entry(v, rv, n, text, cap, len) > len)
            jb->row.late_rank_note = text;
        return;
    }
    /* review31 #7: the rank that waits longest, and how few calls hold
       its wait (nsys_after: 4 of 31 hold 83% of gpu1's 18.22 ms) */
    for (k = 0; k < n; k++)
        if (k != best && (waiter == LATE_MAX || v[k].wait > v[waiter].wait))
            waiter = k;
    if (waiter != LATE_MAX)
        held = wait_held(&v[waiter], &pct);
    /* under half the calls late beyond the clocks' agreement: sporadic
       delays on that rank, not the rank the others wait for */
    sporadic = 2 * v[best].last < calls;
    for (k = 0; k < n; k++)
        if (k != best && v[k].last > 0)
            olen = pr_append(others, sizeof(others), olen,
                             "; %s starts that late in %zu", nrank_name(rv, k),
                             v[k].last);
    if (sporadic)
        len = (size_t)snprintf(
            text, cap,
            "%s starts its collective kernels more than %.0f us (the clocks' "
            "agreement) after the other rank%s in only %zu of the %zu calls "
            "(%s) that the %zu ranks here ran together%s (paired by order "
            "within "
            "each collective; their ends agree within %.0f us in %zu of "
            "them, so the ranks share a clock): sporadic delays on that rank "
            "(host stalls before those calls), not a rank the others wait "
            "for in every call.",
            nrank_name(rv, best), NCLK_END_US, n > 2 ? "s" : "", v[best].last,
            calls, names, n, others, NCLK_END_US, agree);
    else
        len = (size_t)snprintf(
            text, cap,
            "%s, the rank the others wait for: its collective kernels start "
            "more than %.0f us (the clocks' agreement) after the other "
            "rank%s in %zu of the %zu calls (%s) that the %zu ranks here ran "
            "together%s (paired by order within each collective; their ends "
            "agree within %.0f us in %zu of them, so the ranks share a "
            "clock).",
            nrank_name(rv, best), NCLK_END_US, n > 2 ? "s'" : "'s",
            v[best].last, calls, names, n, others, NCLK_END_US, agree);
    len = pr_append(
        text, cap, len,
        " NCCL records no wait "
        "inside its kernels: a rank that starts early spends the time until "
        "the last rank starts inside its kernel, so its communication time "
        "is the longer one though it is on time. Split as msprof-analyze "
        "splits a collective into Wait Time and Transit Time (wait: its "
        "kernel's start to the last rank's start; transit: from there to "
        "its end):");
    for (k = 0; k < n && len < cap; k++)
        len = pr_append(text, cap, len,
                        "%s %s waits %.2f ms of its %.2f ms in these kernels "
                        "(transit %.2f ms)",
                        k ? ";" : "", nrank_name(rv, k), v[k].wait / 1e3,
                        v[k].own / 1e3, (v[k].own - v[k].wait) / 1e3);
    if (held > 0 && len < cap && v[waiter].wait >= NCLK_MIN_WAIT_US)
        len = pr_append(text, cap, len,
                        ". %zu of the %zu calls hold %.0f%% of %s's wait", held,
                        calls, pct, nrank_name(rv, waiter));
    for (k = 0; k < n && len < cap; k++) {
        if (k == best || v[k].wait < NCLK_MIN_WAIT_US)
            continue;
        len =
            pr_append(text, cap, len,
                      ". %s's communication time falls by at most %.2f ms, "
                      "once %s%s is on time",
                      nrank_name(rv, k), v[k].wait / 1e3, nrank_name(rv, best),
                      n > 2 ? " (and every rank it waits for)" : "");
    }
    if (sporadic)
        len = pr_append(text, cap, len,
                        ". Look first at what %s's host does just before the "
                        "calls it starts late (a stall before the launch: a "
                        "synchronisation, data loading, garbage collection), "
                        "not at the links or NCCL settings of the rank with "
                        "the most communication time.",
                        nrank_name(rv, best));
    else
        len = pr_append(text, cap, len,
                        ". Look first at what %s runs before its collectives "
                        "(its host work, the kernels before them), not at the "
                        "links or NCCL settings of the rank with the most "
                        "communication time.",
                        nrank_name(rv, best));
    rooted_entry(v, rv, n, text, cap, len);
    /* sporadic: no rank named as the one the others wait for */
    jb->row.late_rank = sporadic ? NAN : pr_sget_num(rv[best], PR_K_RANK);
    jb->row.late_rank_in_report = sporadic ? -1 : 1;
    jb->row.late_rank_note = text;
}

static void
nccl_late(struct job *jb, const cJSON *runs)
{
    struct nrank v[LATE_MAX];
    size_t k;

    memset(v, 0, sizeof(v));
    nccl_late_in(jb, runs, v);
    for (k = 0; k < LATE_MAX; k++)
        free(v[k].cw);
}

/* "rank 3" or the worker's name, for a heatmap row. */
static void
rank_label(const cJSON *run, char *buf, size_t n)
{
    const cJSON *rank = pr_sget(run, PR_K_RANK);

    if (cJSON_IsNumber(rank))
        snprintf(buf, n, "rank %.0f", rank->valuedouble);
    else
        snprintf(buf, n, "%s", pr_sget_str_or(run, PR_K_WORKER, "?"));
}

static double
step_at(const cJSON *run, size_t j)
{
    return pr_sget_num(cJSON_GetArrayItem(pr_sget(run, PR_K_STEPS), (int)j),
                       PR_K_DURATION_US);
}

/* The max over runs [r0, r1) and steps [s0, s1); NAN when none.  Where
 * some runs have steps (steps: 1), a run without steps has no cell: its
 * one window is its capture, not a step 0 (issue #29). */
static double
cell(const cJSON *const *runs, size_t r0, size_t r1, size_t s0, size_t s1,
     int steps)
{
    double best = NAN;

    for (size_t i = r0; i < r1; i++)
        for (size_t j = s0;
             j < s1 && !(steps && pr_sget_run_is_capture(runs[i])); j++) {
            double v = step_at(runs[i], j);
            if (!isnan(v) && (isnan(best) || v > best))
                best = v;
        }
    return best;
}

static void
heat_rows(cJSON *rows, const cJSON *const *runs, size_t n, size_t per, int *ok)
{
    char a[96], b[96], label[200];

    for (size_t r0 = 0; rows != NULL && r0 < n; r0 += per) {
        size_t r1 = r0 + per < n ? r0 + per : n;
        struct pr_row_heat_row r = {label, (double)(r1 - r0)};

        rank_label(runs[r0], a, sizeof(a));
        rank_label(runs[r1 - 1], b, sizeof(b));
        if (r1 - r0 == 1)
            snprintf(label, sizeof(label), "%s", a);
        else
            snprintf(label, sizeof(label), "%s … %s", a, b);
        if (!pr_rows_write(rows, PR_RO_JOB_HEATMAP_ROWS, &r, 1)) {
            *ok = 0;
            return;
        }
    }
}

/* Rank x step durations, reduced by max to at most PR_JOB_HEAT_ROWS x
 * PR_JOB_HEAT_COLS cells; runs in rank order, steps by index. */
static void
heatmap(struct job *j, const cJSON *const *runs, size_t n, int *ok)
{
    cJSON *vals, *steps;
    size_t cols = 0, i, per_r, per_c, longest = 0;
    int marked = 0; /* a run with steps: the captures have no cell */

    if (!*ok || !new_arr(&j->heat_rows) || !new_arr(&j->heat_steps) ||
        !new_arr(&j->heat_vals)) {
        *ok = 0;
        return;
    }
    steps = j->heat_steps;
    vals = j->heat_vals;

    for (i = 0; i < n; i++)
        marked |= !pr_sget_run_is_capture(runs[i]);
    for (i = 0; i < n; i++)
        if (!(marked && pr_sget_run_is_capture(runs[i])) &&
            pr_sget_len(pr_sget(runs[i], PR_K_STEPS)) > cols) {
            cols = pr_sget_len(pr_sget(runs[i], PR_K_STEPS));
            longest = i;
        }
    per_r = (n + PR_JOB_HEAT_ROWS - 1) / PR_JOB_HEAT_ROWS;
    per_c = cols > 0 ? (cols + PR_JOB_HEAT_COLS - 1) / PR_JOB_HEAT_COLS : 1;
    j->row.heatmap = (struct pr_row_job_heatmap){
        .reduce = "max",
        .runs_per_row = (int64_t)per_r,
        .steps_per_column = (int64_t)per_c,
        .rows = j->heat_rows,
        .steps = steps,
        .values_us = vals,
    };
    heat_rows(j->heat_rows, runs, n, per_r, ok);
    for (i = 0; *ok && i < cols; i += per_c) {
        const cJSON *st =
            cJSON_GetArrayItem(pr_sget(runs[longest], PR_K_STEPS), (int)i);
        cJSON *s = cJSON_CreateString(pr_sget_str_or(st, PR_K_NAME, ""));
        if (s == NULL || !cJSON_AddItemToArray(steps, s)) {
            cJSON_Delete(s);
            *ok = 0;
        }
    }
    for (size_t r0 = 0; *ok && r0 < n; r0 += per_r) {
        cJSON *row = cJSON_CreateArray();
        if (row == NULL || !cJSON_AddItemToArray(vals, row)) {
            cJSON_Delete(row);
            *ok = 0;
            return;
        }
        for (size_t c0 = 0; c0 < cols; c0 += per_c) {
            double v = cell(runs, r0, r0 + per_r < n ? r0 + per_r : n, c0,
                            c0 + per_c < cols ? c0 + per_c : cols, marked);
            cJSON *x = isnan(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v);
            if (x == NULL || !cJSON_AddItemToArray(row, x)) {
                cJSON_Delete(x);
                *ok = 0;
            }
        }
    }
}

/* ---- tables aggregated over ranks ---------------------------------- */

struct entry {
    const char *name;
    size_t run;
    double v, host, calls;
};

static int
cmp_entry(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    int c = strcmp(x->name, y->name);

    if (c != 0)
        return c;
    return x->run < y->run ? -1 : x->run > y->run;
}

/* One aggregated row, built while its group is read. */
struct agg {
    const char *name;
    size_t ranks, max_run;
    double sum, min, max, host, calls;
};

static int
cmp_agg(const void *a, const void *b)
{
    const struct agg *x = a, *y = b;
    double mx = x->sum / (double)(x->ranks ? x->ranks : 1),
           my = y->sum / (double)(y->ranks ? y->ranks : 1);

    if (mx != my) /* by the mean over the ranks that ran it */
        return mx > my ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* The row's figures are over the ranks that ran it (g->ranks): in a
 * pipeline each stage runs its own layers, and a rank of only the
 * producer's step tables runs none, so counting the others as 0 would
 * halve a stage's mean and make every spread 100% (issue #30).  One row
 * of job.operators (ops) or job.kernels appended to a; 0 when out of
 * memory. */
static int
agg_row(cJSON *a, const struct agg *g, const cJSON *const *runs, int ops)
{
    double n = g->ranks > 0 ? (double)g->ranks : 1.0;
    double mean = g->sum / n;
    /* one rank has no spread (issue #30 finding 7: "0.0%, slowest on"
       the only rank that ran it) */
    double spread =
        mean > 0 && g->ranks > 1 ? 100.0 * (g->max - g->min) / mean : NAN;
    const char *worker = pr_sget_str_or(runs[g->max_run], PR_K_WORKER, "");

    if (ops) {
        struct pr_row_job_operator r = {
            g->name, (double)g->ranks, g->calls / n, mean,        g->min,
            g->max,  spread,           worker,       g->host / n, 0};
        if (g->host < 0) /* NAN: no rank recorded host times */
            pr_rows_omit(PR_RO_JOB_OPERATORS, &r,
                         PR_SR_JOB_OPERATORS_PR_K_MEAN_HOST_SELF_US);
        return pr_rows_write(a, PR_RO_JOB_OPERATORS, &r, 1);
    }
    {
        struct pr_row_job_kernel r = {
            g->name, (double)g->ranks, g->calls / n, mean,
            g->min,  g->max,           spread,       worker};
        return pr_rows_write(a, PR_RO_JOB_KERNELS, &r, 1);
    }
}

/* Group the sorted entries by name into aggs; returns how many. */
static size_t
group(const struct entry *e, size_t m, struct agg *out, int with_host)
{
    size_t i = 0, k = 0;

    while (i < m) {
        struct agg g = {
            e[i].name, 0, e[i].run, 0, e[i].v, e[i].v, with_host ? NAN : -1, 0};
        for (; i < m && strcmp(e[i].name, g.name) == 0; i++) {
            g.ranks++;
            g.sum += e[i].v;
            g.calls += e[i].calls;
            if (with_host && !isnan(e[i].host))
                g.host = isnan(g.host) ? e[i].host : g.host + e[i].host;
            if (e[i].v < g.min)
                g.min = e[i].v;
            if (e[i].v > g.max) {
                g.max = e[i].v;
                g.max_run = e[i].run;
            }
        }
        out[k++] = g;
    }
    return k;
}

/* summary-wide table `out_key` from every run's `arr_key` rows, value
 * `val_key` (a time in µs; rows of one name in one run are summed). */
static void
aggregate(cJSON **out, int64_t *total, const cJSON *const *runs, size_t n,
          const char *arr_key, const char *val_key, const char *out_key,
          int *ok)
{
    size_t m = 0, i, k;
    struct entry *e;
    struct agg *g;
    cJSON *a;
    const cJSON *row;
    int host = strcmp(arr_key, PR_K_OPERATORS) == 0;

    for (i = 0; i < n; i++)
        m += pr_sget_len(pr_sget(runs[i], arr_key));
    e = calloc(m + 1, sizeof(*e));
    g = calloc(m + 1, sizeof(*g));
    a = *ok && new_arr(out) ? *out : NULL;
    if (e == NULL || g == NULL || a == NULL) {
        free(e);
        free(g);
        *ok = 0;
        return;
    }
    for (i = 0, m = 0; i < n; i++)
        cJSON_ArrayForEach(row, pr_sget(runs[i], arr_key))
        {
            double v = pr_sget_num(row, val_key),
                   h = pr_sget_num(row, PR_K_HOST_SELF_US);
            double c = pr_sget_num(row, PR_K_CALLS);
            const char *name = pr_sget_str(row, PR_K_NAME);
            if (name == NULL)
                continue;
            e[m++] =
                (struct entry){name, i, isnan(v) ? 0 : v, h, isnan(c) ? 0 : c};
        }
    qsort(e, m, sizeof(*e), cmp_entry);
    /* one name twice in a run (shouldn't be): fold into one entry */
    for (i = 1, k = m > 0; i < m; i++) {
        if (strcmp(e[i].name, e[k - 1].name) == 0 && e[i].run == e[k - 1].run) {
            e[k - 1].v += e[i].v;
            e[k - 1].host += e[i].host;
            e[k - 1].calls += e[i].calls;
        } else {
            e[k++] = e[i];
        }
    }
    k = group(e, k, g, host);
    qsort(g, k, sizeof(*g), cmp_agg);
    for (i = 0; i < k && i < PR_JOB_MAX_ROWS && *ok; i++)
        *ok = agg_row(a, &g[i], runs, strcmp(out_key, PR_K_OPERATORS) == 0);
    *total = (int64_t)k;
    free(e);
    free(g);
}

static double
rank_key(const cJSON *run)
{
    double r = pr_sget_num(run, PR_K_RANK);

    return isnan(r) ? INFINITY : r;
}

struct ord {
    const cJSON *run;
    size_t idx;
};

/* Runs in rank order (runs without a rank last), the summary's order
 * breaking ties: the heatmap's rows. */
static int
cmp_by_rank(const void *a, const void *b)
{
    const struct ord *x = a, *y = b;
    double rx = rank_key(x->run), ry = rank_key(y->run);

    if (rx != ry)
        return rx < ry ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* rv[] (summary order) put in rank order; 0 on out-of-memory. */
static int
rank_order(const cJSON **rv, size_t n)
{
    struct ord *o = calloc(n ? n : 1, sizeof(*o));
    size_t i;

    if (o == NULL)
        return 0;
    for (i = 0; i < n; i++)
        o[i] = (struct ord){rv[i], i};
    qsort(o, n, sizeof(*o), cmp_by_rank);
    for (i = 0; i < n; i++)
        rv[i] = o[i].run;
    free(o);
    return 1;
}

/* The device kinds of the job's runs ("gpu", "npu"), in order of first
 * sight, and a note when there are two or more: one job of a GPU rank
 * and NPU ranks is files of different runs put together, or a
 * heterogeneous job whose ranks do not compare (third review, finding
 * 8: mindspore/fixtures). */
static void
device_kinds(struct job *j, const cJSON *runs, int *ok)
{
    cJSON *arr = *ok && new_arr(&j->kinds) ? j->kinds : NULL, *k;
    const cJSON *r, *d;
    char *note = j->mixed;
    const size_t cap = sizeof(j->mixed);
    size_t len = 0;
    int n = 0;

    *ok = *ok && arr != NULL;
    j->row.device_kinds = arr;
    j->row.mixed_devices_note = NULL;
    cJSON_ArrayForEach(r, runs)
    {
        cJSON_ArrayForEach(d, pr_sget(r, PR_K_DEVICES))
        {
            const char *kind = pr_sget_str(d, PR_K_KIND);
            int seen = 0;

            if (kind == NULL || arr == NULL)
                continue;
            cJSON_ArrayForEach(k, arr)
            {
                seen |= cJSON_IsString(k) && strcmp(k->valuestring, kind) == 0;
            }
            if (!seen && n < 8) {
                cJSON *s = cJSON_CreateString(kind);

                if (s == NULL || !cJSON_AddItemToArray(arr, s)) {
                    cJSON_Delete(s);
                    *ok = 0;
                    return;
                }
                n++;
            }
        }
    }
    if (n < 2)
        return;
    len = (size_t)snprintf(note, cap, "One job holds ");
    cJSON_ArrayForEach(k, arr)
    {
        int w = snprintf(note + len, cap - len, "%s%s",
                         k != arr->child ? " and " : "", k->valuestring);
        size_t c;

        if (w < 0 || (size_t)w >= cap - len)
            break;
        for (c = len + (size_t)w - strlen(k->valuestring); c < len + (size_t)w;
             c++) /* "gpu" -> "GPU" */
            if (note[c] >= 'a' && note[c] <= 'z')
                note[c] = (char)(note[c] - 'a' + 'A');
        len += (size_t)w;
    }
    if (len + 2 < cap)
        snprintf(note + len, cap - len,
                 " devices: files of different runs put together, or a "
                 "heterogeneous job; its ranks' steps do not compare.");
    j->row.mixed_devices_note = note;
}

/* Where no rank is named from Notify Wait tasks (an export without them:
 * torch_npu 2023's communication.json alone) yet most of every rank's
 * HCCL time is Wait: msprof-analyze names the rank that waits least as
 * the late one, so where every rank here waits about as long (within
 * SYNC_ALIKE) and the job has more ranks, it is one of those not here
 * (review 10 #5: npu_old2023's 2 ranks of 10 wait 115.8 and 114.0 ms a
 * step).  The job's note and the coverage notes say so (the runs here
 * are the job's lite copies: each run's communication finding keeps the
 * rule, producer.c).  1 when they do: who lists each rank's wait, *pn
 * ranks. */
#define SYNC_ALIKE 0.10

/* 1 when the runs' longest waits are in communication groups that are
 * not one (review 16 #6: npu_old2023's rank 0 waits 96.9 ms in group
 * ...459, rank 1 97.1 ms in group ...303, two groups of their own): each
 * waits for its own group's peers, so their waits compared name no late
 * rank; who lists each. */
static int
groups_differ(const cJSON *runs, char *who, size_t cap)
{
    const cJSON *r;
    const char *first = NULL;
    size_t len = 0;
    int differ = 0;

    who[0] = '\0';
    cJSON_ArrayForEach(r, runs)
    {
        /* the operation pr_producer_comm_wait names, its group from its
           name (communication.json's hcom_..._N@<group>) */
        const cJSON *top = pr_producer_comm_top(r);
        double us = pr_sget_num(top, PR_K_WAIT_US);
        const char *g = pr_sget_str(top, PR_K_GROUP);

        if (g == NULL || !(us > 0))
            return 0;
        if (first == NULL)
            first = g;
        differ |= strcmp(first, g) != 0;
        len = pr_append(who, cap, len, "%s%s %.1f ms in group %s",
                        len ? ", " : "", pr_sget_str_or(r, PR_K_WORKER, "?"),
                        us / 1e3, g);
    }
    return differ;
}

static int
waits_alike(const cJSON *runs, double world, char *who, size_t cap, size_t *pn)
{
    const cJSON *r;
    double lo = INFINITY, hi = 0;
    size_t n = 0, len = 0;

    who[0] = '\0';
    *pn = 0;
    cJSON_ArrayForEach(r, runs)
    {
        double x = pr_producer_comm_sync(r);

        if (!(x > 0))
            return 0; /* every rank here mostly waits, or no reading */
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
        len = pr_append(who, cap, len, "%s%s %.1f ms", n ? ", " : "",
                        pr_sget_str_or(r, PR_K_WORKER, "?"), x / 1e3);
        n++;
    }
    *pn = n;
    return n >= 2 && hi <= lo * (1.0 + SYNC_ALIKE) && world > (double)n;
}

static void
sync_alike(struct job *j, const cJSON *runs)
{
    /* a world the traces do not state: its lower bound (review 20 #2),
       the ranks missing "or more" */
    int floor = isnan(j->row.world_size);
    double world = floor ? j->row.world_size_at_least : j->row.world_size;
    char who[600], groups[600];
    size_t n;

    if (!isnan(j->row.late_rank) ||
        !waits_alike(runs, world, who, sizeof(who), &n))
        return;
    if (groups_differ(runs, groups, sizeof(groups))) {
        snprintf(j->late, sizeof(j->late),
                 "not named by rank: the export holds no Notify Wait tasks "
                 "naming the rank each wait is for, and the ranks here wait "
                 "longest in different communication groups (%s): each "
                 "waits for peers of its own group, so comparing their "
                 "waits, as msprof-analyze's slow-rank analysis compares the "
                 "ranks of one group, names no late rank; profile those "
                 "groups' other ranks (their steps, their data loaders).",
                 groups);
        j->row.late_rank_note = j->late;
        return;
    }
    snprintf(j->late, sizeof(j->late),
             "not named by rank: the export holds no Notify Wait tasks "
             "naming the rank each wait is for, but every rank here waits "
             "about as long before its collectives' first transfer (HCCL's "
             "Synchronization in communication.json, a step: %s); as "
             "msprof-analyze's slow-rank analysis reads such waits, the rank "
             "that waits least is the late one, so it is one of the %.0f%s "
             "ranks not in this report; profile them (their steps, their "
             "data loaders) first.",
             who, world - (double)n, floor ? " or more" : "");
    j->row.late_rank_note = j->late;
}

int
pr_job_late_clause(const cJSON *runs, double world, char *what, size_t cap)
{
    long who[LATE_MAX], gp;
    double wait[LATE_MAX], with, late;
    char list[600];
    size_t n, best;

    if (pr_sget_len(runs) < 2 || !is_job(runs))
        return 0;
    best = late_vote(runs, who, wait, &n);
    if (best == LATE_MAX) { /* sync_alike's reading */
        if (!waits_alike(runs, world, list, sizeof(list), &n) ||
            groups_differ(runs, list, sizeof(list)))
            return 0;
        snprintf(what, cap,
                 "the late rank is one of the %.0f missing (the ranks here "
                 "wait about as long in HCCL's Synchronization; see the late "
                 "rank note)",
                 world - (double)n);
        return 1;
    }
    late = (double)who[best];
    if (in_runs(runs, late))
        return 0;
    gp = group_of(runs, who[best]);
    with = gp >= 0 ? (double)gp : NAN;
    /* review 12 #3: where a rank close behind is named with it, the
       notes name both, as the late-rank note and the card do */
    if (!isnan(with) && !in_runs(runs, with))
        snprintf(what, cap,
                 "the late ranks, rank %.0f and rank %.0f close behind it, "
                 "are both missing (the ranks here wait for them)",
                 late, with);
    else if (!isnan(with))
        snprintf(what, cap,
                 "the late rank, rank %.0f, is one of the missing (the ranks "
                 "here wait for it and for rank %.0f, close behind it, "
                 "which is in this report)",
                 late, with);
    else
        snprintf(what, cap,
                 "the late rank, rank %.0f, is one of the missing (the ranks "
                 "here wait for it%s)",
                 late,
                 pr_sget_runs_late_first_step_only(runs)
                     ? " in their first step only"
                     : "");
    return 1;
}

static enum pr_status
build(cJSON *summary, const cJSON *runs, size_t n, struct pr_error *err)
{
    const cJSON **rv = calloc(n, sizeof(*rv));
    struct rk *v = calloc(n, sizeof(*v)), *sorted = calloc(n, sizeof(*v));
    struct job *j = calloc(1, sizeof(*j));
    cJSON *job = NULL;
    const cJSON *r;
    size_t i = 0, m = 0;
    int ok = rv != NULL && v != NULL && sorted != NULL && j != NULL;

    if (ok) {
        size_t marked = 0, k;

        cJSON_ArrayForEach(r, runs)
        {
            rv[i] = r;
            read_rank(r, i, &v[i]);
            marked += v[i].has_steps;
            i++;
        }
        job_warmup(v, i);
        /* where some ranks have step markers the spread is over those
           only: a capture read as one step, or a rank of operator
           statistics, compares nothing with a step series (third review,
           finding 8: 3483.9% over a GPU capture, a statistics-only rank
           and 40 real steps); ranks of captures alone compare alike */
        for (k = 0; k < i; k++) {
            v[k].in_spread =
                !isnan(v[k].mean) && (v[k].has_steps || marked == 0);
            if (v[k].in_spread)
                sorted[m++] = v[k];
        }
        qsort(sorted, m, sizeof(*sorted), cmp_mean);
        j->row.ranks = (int64_t)n;
        distribution(j, sorted, m, pipeline_slowest(summary, sorted, m), marked,
                     &ok);
        coverage(j, summary);
        late_rank(j, runs);
        sync_alike(j, runs);
        nccl_late(j, runs);
        device_kinds(j, runs, &ok);
        ok = ok && new_arr(&j->per_rank);
        if (ok)
            per_rank(j->per_rank, v, n, m > 0 ? sorted[(m - 1) / 2].mean : NAN,
                     &ok);
        j->row.per_rank = j->per_rank;
        aggregate(&j->operators, &j->row.operators_total, rv, n, PR_K_OPERATORS,
                  PR_K_DEVICE_SELF_US, PR_K_OPERATORS, &ok);
        aggregate(&j->kernels, &j->row.kernels_total, rv, n, PR_K_KERNELS,
                  PR_K_TOTAL_US, PR_K_KERNELS, &ok);
        j->row.operators = j->operators;
        j->row.kernels = j->kernels;
        ok = ok && rank_order(rv, n);
        heatmap(j, rv, n, &ok);
        /* the job, written once */
        job = ok ? pr_rows_row(PR_RO_JOB, &j->row) : NULL;
        ok = job != NULL;
    }
    free(rv);
    free(v);
    free(sorted);
    if (j != NULL)
        job_free(j);
    free(j);
    if (!ok || !pr_sput(summary, PR_K_JOB, job)) {
        cJSON_Delete(job);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    return PR_OK;
}

enum pr_status
pr_job_build(cJSON *summary, struct pr_error *err)
{
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(summary, PR_K_RUNS);
    size_t n = (size_t)cJSON_GetArraySize(runs);

    /* no placeholder: a job is written once (build), null where none */
    if (n >= 2 && is_job(runs))
        return build(summary, runs, n, err);
    if (cJSON_GetObjectItemCaseSensitive(summary, PR_K_JOB) == NULL &&
        cJSON_AddNullToObject(summary, PR_K_JOB) == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}
