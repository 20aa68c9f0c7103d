/* distributed.c - the cross-rank "distributed" section of the summary,
 * assembled from the runs' communication objects (comm.c): per-worker
 * computation / overlap / communication / other, the collective table
 * summed over ranks with nccl-tests' bandwidths, and stragglers - only
 * when every rank of the job is in the report. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/comm.h"
#include "profreport/distributed.h"
#include "profreport/job.h"
#include "profreport/keys.h"
#include "profreport/rows.h"
#include "profreport/sget.h"
#include "profreport/stages.h"

#include "../internal.h"

struct wk {
    const cJSON *run;
    const char *worker;
    double rank;
    double comp, overlap, comm, other; /* NaN when the run has none */
    int steps;
    int from_table; /* the split is the producer's step table's */
    /* where it comes from: the table's source, or "step_trace_raw" */
    const char *split_source;
};

/* The rank the trace states: distributedInfo's (the run's rank), else
 * the number a worker name gives as a rank ("rank3", "sampled_rank-1",
 * "rank_2"); NaN (written null) otherwise.  Another number in the name
 * is not a rank: an Nsight Systems worker "gpu0 pid 144" names a process,
 * "op_summary_1.csv" a device. */
static double
rank_of(const cJSON *run, const char *worker)
{
    double r = pr_sget_num(run, PR_K_RANK);
    const char *p, *found = NULL;

    if (!isnan(r))
        return r;
    for (p = worker; (p = strstr(p, "rank")) != NULL; p += 4) {
        const char *d = p + 4;

        if (*d == '-' || *d == '_' || *d == ' ')
            d++;
        if (*d >= '0' && *d <= '9')
            found = d;
    }
    return found ? strtod(found, NULL) : NAN;
}

/* Whether two ranks are the same: equal, or both unknown. */
static int
same_rank(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

/* By rank, the ranks the trace does not state last; then by worker. */
static int
cmp_wk(const void *a, const void *b)
{
    const struct wk *x = a, *y = b;

    if (!same_rank(x->rank, y->rank)) {
        if (isnan(x->rank) || isnan(y->rank))
            return isnan(x->rank) ? 1 : -1;
        return x->rank < y->rank ? -1 : 1;
    }
    return strcmp(x->worker, y->worker);
}

/* Distinct ranks among the runs (w sorted by rank, then worker): several
 * spans of one worker are one rank. */
static size_t
ranks_present(const struct wk *w, size_t n)
{
    size_t i, k = n > 0;

    for (i = 1; i < n; i++)
        k += strcmp(w[i].worker, w[i - 1].worker) != 0 ||
             !same_rank(w[i].rank, w[i - 1].rank);
    return k;
}

/* A run that has collectives: communication time or a collective call. */
static int
has_collectives(const struct wk *w)
{
    const cJSON *c = pr_sget(w->run, PR_K_COMMUNICATION);

    /* a MindSpore cluster table's split is not a collective read from
       the trace: its tasks' figures decide (ms_run3, one rank of 2 with
       no collective, has no view) */
    if (pr_sget_is(pr_sget_str(pr_sget(w->run, PR_K_STEP_PHASES), PR_K_SOURCE),
                   "ascend_cluster_analyse"))
        return pr_sget_len(pr_sget(c, PR_K_OPS)) > 0 ||
               pr_sget_num(c, PR_K_COMMUNICATION_US) > 0 ||
               pr_sget_num(c, PR_K_OVERLAP_US) > 0;
    return pr_sget_len(pr_sget(c, PR_K_OPS)) > 0 || w->comm > 0 ||
           w->overlap > 0;
}

/* The section exists when more than one rank is present, and for a
 * single rank whose trace has collectives (as the plugin's view, 13.3):
 * one rank of a larger job, or several spans of one worker, without
 * collectives has nothing to show. */
static int
is_distributed(const struct wk *w, size_t n)
{
    size_t i;

    if (ranks_present(w, n) > 1)
        return 1;
    for (i = 0; i < n; i++)
        if (has_collectives(&w[i]))
            return 1;
    return 0;
}

static int
cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

/* Stragglers need every rank: with 2 sampled ranks of 128, the slow one
 * may be any of the 126 others, and the two present only wait for it.
 * The note says how many ranks are here against the job's world size;
 * "ranks_complete" whether the report holds every rank (null: not
 * known), which the job view and the reports read (review-2 finding 9).
 * A world the traces do not state but whose links name more ranks than
 * are here (msprof CANN6: 2 ranks, links to ranks 0 to 5) is partial. */
/* One rank in the report whose HCCL tasks name the rank it waited for
 * (runs[].late_peer): the coverage note says so, beside the peer note
 * that names it (review 10: npu_text2 said only "who waits for whom
 * needs the other ranks' traces" while its finding named rank 5). */
static const char *
one_rank_late(const cJSON *run, const char *note, char *text, size_t cap)
{
    double late = pr_sget_num(pr_sget(run, PR_K_LATE_PEER), PR_K_RANK);
    const char *cut = note ? strstr(note, ": its collectives are shown") : NULL;

    if (cut == NULL || isnan(late) || late == pr_sget_num(run, PR_K_RANK))
        return note;
    snprintf(text, cap,
             "%.*s: its collectives are shown, and its HCCL tasks name the "
             "rank it waits for, rank %.0f (not in this report: "
             "critical_path.peer_wait_rank); whether the other ranks wait "
             "for it too needs their traces",
             (int)(cut - note), note, late);
    return text;
}

/* The coverage columns of d: ranks_present, ranks_complete,
 * world_size_at_least and coverage_note (in text, cap 400 or more).  1
 * when the report holds every rank. */
static int
emit_coverage(size_t present, double world, int world_known, double floor,
              struct pr_row_distributed *d, char *text, size_t cap)
{
    char bound[160] = "";
    int short_of_links = !world_known && floor > (double)present;

    d->ranks_present = (int64_t)present;
    d->ranks_complete = world_known      ? !(world > (double)present)
                        : short_of_links ? 0
                                         : -1;
    d->world_size_at_least = short_of_links ? floor : NAN;
    d->coverage_note = text;
    if (short_of_links)
        snprintf(bound, sizeof(bound),
                 " (%s communication links name ranks 0 to %.0f, so it "
                 "is at least %.0f)",
                 present == 1 ? "its" : "their", floor - 1, floor);
    if (present >= 2 && short_of_links) {
        snprintf(text, cap,
                 "%zu ranks are in this report and their traces do not say "
                 "the job's world size%s: no straggler is named, because "
                 "the slow rank may be one of the %.0f or more missing",
                 present, bound, floor - (double)present);
        return 0;
    }
    if (present >= 2 && !world_known) {
        snprintf(text, cap,
                 "%zu ranks are in this report and their traces do not say "
                 "the job's world size: the slowest rank named here is the "
                 "slowest of these",
                 present);
        return 1;
    }
    if (present >= 2 && !(world > (double)present)) {
        d->coverage_note = NULL;
        return 1;
    }
    if (present < 2 && world_known && world > 1)
        snprintf(text, cap,
                 "1 of %.0f ranks is in this report: its collectives are "
                 "shown, but who waits for whom needs the other ranks' "
                 "traces",
                 world);
    else if (present < 2)
        snprintf(text, cap,
                 "one rank is in this report and the trace does not say "
                 "the job's world size%s: its collectives are shown, but who "
                 "waits for whom needs the other ranks' traces",
                 bound);
    else
        snprintf(text, cap,
                 "%zu of %.0f ranks are in this report: no straggler is "
                 "named, because the slow rank may be one of the %.0f "
                 "missing; profile every rank (or compare these against "
                 "ranks known to be healthy)",
                 present, world, world - (double)present);
    return 0;
}

/* A rank that computes well above the median while the others wait. */
struct strag {
    size_t i;      /* into w[] */
    double excess; /* computation above the median, a fraction of it */
};

/* The worst first, then by rank: a report that shows the first few shows
 * the ones that hold the job back most. */
static int
cmp_strag(const void *a, const void *b)
{
    const struct strag *x = a, *y = b;

    if (x->excess != y->excess)
        return x->excess > y->excess ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* The index of rank's stage in pipe (distributed.pipeline), -1 where
 * the pipeline names none or rank is in no stage. */
static int
stage_of(const cJSON *pipe, double rank)
{
    const cJSON *st, *r;
    int i = 0;

    if (isnan(rank))
        return -1;
    cJSON_ArrayForEach(st, pr_sget(pipe, PR_K_STAGES))
    {
        cJSON_ArrayForEach(r, pr_sget(st, PR_K_RANKS))
        {
            if (cJSON_IsNumber(r) && r->valuedouble == rank)
                return i;
        }
        i++;
    }
    return -1;
}

/* Stragglers: a rank computing 5% or more above the median of its peers
 * while they spend longer in communication.  Its peers are the ranks of
 * its pipeline stage where the job has stages (pipe, distributed.pipeline):
 * ranks of different stages run different layers, and the stage that
 * computes longer is the pipeline imbalance finding, not a straggler
 * (held-out 4-rank CANN 8.3 job, PP=2: both ranks of the last stage were
 * named stragglers, "the other ranks wait for it", its stage peer among
 * them).  A rank alone in its stage has no peer to compare with. */
static void
emit_stragglers(const struct wk *w, size_t n, int all_ranks, const cJSON *pipe,
                cJSON *arr, int *ok)
{
    double *busy, *med, *comm_sum;
    size_t *cnt;
    int *grp, staged = pr_sget_len(pr_sget(pipe, PR_K_STAGES)) >= 2;
    struct strag *v;
    size_t i, j, k = 0;

    if (!all_ranks || !*ok)
        return;
    busy = calloc(n + 1, sizeof(*busy));
    med = calloc(n + 1, sizeof(*med));
    comm_sum = calloc(n + 1, sizeof(*comm_sum));
    cnt = calloc(n + 1, sizeof(*cnt));
    grp = calloc(n + 1, sizeof(*grp));
    v = calloc(n + 1, sizeof(*v));
    if (busy == NULL || med == NULL || comm_sum == NULL || cnt == NULL ||
        grp == NULL || v == NULL) {
        *ok = 0;
        goto out;
    }
    /* grp[i]: worker i's stage (0 for all without stages); a worker in
       no stage of a staged job is compared with no one */
    for (i = 0; i < n; i++)
        grp[i] = staged ? stage_of(pipe, w[i].rank) : 0;
    for (i = 0; i < n; i++) {
        size_t m = 0;
        if (grp[i] < 0 || isnan(w[i].comp) || isnan(w[i].overlap))
            continue;
        for (j = 0; j < n; j++)
            if (grp[j] == grp[i] && !isnan(w[j].comp) && !isnan(w[j].overlap)) {
                busy[m++] = w[j].comp + w[j].overlap;
                comm_sum[i] += w[j].comm;
            }
        cnt[i] = m;
        if (m < 2) {
            med[i] = NAN;
            continue;
        }
        qsort(busy, m, sizeof(busy[0]), cmp_dbl);
        med[i] = m % 2 ? busy[m / 2] : (busy[m / 2 - 1] + busy[m / 2]) / 2;
    }
    for (i = 0; i < n; i++) {
        double b = w[i].comp + w[i].overlap;
        if (grp[i] < 0 || cnt[i] < 2 || !(med[i] > 0) || isnan(b) ||
            b < 1.05 * med[i])
            continue;
        if (!((comm_sum[i] - w[i].comm) / (double)(cnt[i] - 1) > w[i].comm))
            continue;
        v[k++] = (struct strag){i, (b - med[i]) / med[i]};
    }
    qsort(v, k, sizeof(*v), cmp_strag);
    for (i = 0; i < k && *ok; i++) {
        const struct wk *s = &w[v[i].i];
        double b = s->comp + s->overlap;
        size_t c = cnt[v[i].i];
        char text[400], who[160];
        struct pr_row_straggler r;
        if (isnan(s->rank))
            snprintf(who, sizeof(who), "worker %s", s->worker);
        else
            snprintf(who, sizeof(who), "rank %.0f", s->rank);
        snprintf(text, sizeof(text),
                 "%s computes %.1f \xC2\xB5s per step, %.0f%% above the "
                 "median %.1f \xC2\xB5s%s, while the other ranks%s spend "
                 "%.1f \xC2\xB5s per "
                 "step in communication against %.1f \xC2\xB5s here: they wait "
                 "for it",
                 who, b, 100.0 * v[i].excess, med[v[i].i],
                 staged ? " of its pipeline stage" : "",
                 staged ? " of the stage" : "",
                 (comm_sum[v[i].i] - s->comm) / (double)(c - 1), s->comm);
        r = (struct pr_row_straggler){s->worker, s->rank, text};
        *ok = pr_rows_write(arr, PR_RO_DISTRIBUTED_STRAGGLERS, &r, 1);
    }
out:
    free(busy);
    free(med);
    free(comm_sum);
    free(cnt);
    free(grp);
    free(v);
}

/* The workers' rows into arr; their step counts where they differ into
 * *mis (created; NULL where they agree). */
static void
emit_workers(const struct wk *w, size_t n, cJSON *arr, cJSON **mis, int *ok)
{
    size_t i;
    int mismatch = 0;

    for (i = 0; i < n && *ok; i++) {
        struct pr_row_worker r = {
            w[i].worker, w[i].rank, w[i].comp, w[i].overlap, w[i].comm,
            w[i].other, w[i].steps,
            w[i].from_table ? w[i].split_source : "tasks",
            /* HTA's get_comm_comp_overlap: the overlapped share of the
               communication time; none where no computation was recorded
               (a CPU-only gloo run: review 14 #2) */
            w[i].overlap + w[i].comm > 0 && w[i].comp + w[i].overlap > 0
                ? 100.0 * w[i].overlap / (w[i].overlap + w[i].comm)
                : NAN};

        *ok = pr_rows_write(arr, PR_RO_DISTRIBUTED_WORKERS, &r, 1);
        mismatch |= w[i].steps != w[0].steps;
    }
    *mis = NULL;
    if (!mismatch || !*ok)
        return;
    *mis = cJSON_CreateArray();
    *ok = *mis != NULL;
    for (i = 0; i < n && *ok; i++) {
        struct pr_row_step_count row = {w[i].worker, w[i].steps};

        *ok =
            pr_rows_write(*mis, PR_RO_DISTRIBUTED_STEP_COUNT_MISMATCH, &row, 1);
    }
}

/* One collective summed over the ranks, in order of first sight. */
struct coll {
    const char *name; /* borrowed from a run */
    double calls, bytes, us, timed, group_size;
    /* bytes over the links of ranks whose calls have no message size
       (their busbw over their time; NaN: a rank gives neither) */
    double link;
    /* the time those are over: a rank's bw_us where it rates some calls
       only (comm.c's link_split), its calls' time where all */
    double link_us, link_calls;
    /* the calls with a size, their bytes; the calls both sized and timed
       the ranks' rates are over, their bytes and time (review 22g #4) */
    double sized, sized_bytes, bw_calls, bw_bytes, bw_us;
    /* a rank rated its calls over a time not theirs (comm.c: the
       producer's Transit Time, review32a #3): the job's rate is the
       ranks' rates' sums, never the bytes over the calls' time */
    int transit;
    /* a rank's busbw is over some of its calls only (link_split) */
    int link_named;
};

struct colls {
    struct coll *v; /* owned */
    size_t n, cap;
};

static struct coll *
coll_of(struct colls *cs, const char *name, double group_size)
{
    size_t i;

    for (i = 0; i < cs->n; i++)
        if (strcmp(cs->v[i].name, name) == 0)
            return &cs->v[i];
    if (pr_grow((void **)&cs->v, &cs->cap, cs->n + 1, sizeof(*cs->v)) != PR_OK)
        return NULL;
    cs->v[cs->n] = (struct coll){name, 0, 0, 0, 0, group_size, 0, 0,
                                 0,    0, 0, 0, 0, 0,          0, 0};
    return &cs->v[cs->n++];
}

/* One run's "communication.ops" row into its sum. */
static int
add_op(struct colls *cs, const cJSON *op)
{
    const char *name = pr_sget_str(op, PR_K_NAME);
    double us = pr_sget_num(op, PR_K_TOTAL_US),
           timed = pr_sget_num(op, PR_K_TIMED_CALLS);
    double total_b = pr_sget_num(op, PR_K_TOTAL_BYTES),
           algbw = pr_sget_num(op, PR_K_ALGBW_GBPS), sized, bw_us, bw_calls,
           busbw_calls;
    struct coll *a;

    if (name == NULL)
        return 1;
    a = coll_of(cs, name, pr_sget_num(op, PR_K_GROUP_SIZE));
    if (a == NULL)
        return 0;
    if (isnan(a->group_size) ||
        pr_sget_num(op, PR_K_GROUP_SIZE) > a->group_size)
        a->group_size = pr_sget_num(op, PR_K_GROUP_SIZE);
    a->calls += pr_sget_num(op, PR_K_CALLS);
    a->bytes +=
        pr_sget_num(op, PR_K_TOTAL_BYTES); /* NaN poisons: unknown stays so */
    a->us += isnan(us) ? 0 : us;
    /* a rank's link bytes, where it states busbw without a message */
    bw_us = pr_sget_num(op, PR_K_BW_US);
    bw_us = isnan(total_b) && isnan(algbw) && !isnan(bw_us) ? bw_us : us;
    a->link += isnan(total_b)
                   ? pr_sget_num(op, PR_K_BUSBW_GBPS) * bw_us * 1000.0
                   : NAN;
    a->link_us += isnan(bw_us) ? 0 : bw_us;
    /* the calls that busbw is over: those a rank names (comm.c's
       link_split: the calls of 1 MiB or more), else all its calls */
    busbw_calls = pr_sget_num(op, PR_K_BW_CALLS);
    if (isnan(total_b) && isnan(algbw) &&
        !isnan(pr_sget_num(op, PR_K_BUSBW_GBPS))) {
        a->link_calls +=
            busbw_calls > 0 ? busbw_calls : pr_sget_num(op, PR_K_CALLS);
        a->link_named |= busbw_calls > 0;
    }
    a->timed +=
        isnan(timed) ? (isnan(us) ? 0 : pr_sget_num(op, PR_K_CALLS)) : timed;
    /* an older summary's op has no sized_calls: every call or none */
    sized = pr_sget_num(op, PR_K_SIZED_CALLS);
    if (isnan(sized))
        sized = isnan(total_b) ? 0 : pr_sget_num(op, PR_K_CALLS);
    a->sized += sized;
    a->sized_bytes += sized > 0 && !isnan(pr_sget_num(op, PR_K_SIZED_BYTES))
                          ? pr_sget_num(op, PR_K_SIZED_BYTES)
                      : isnan(total_b) ? 0
                                       : total_b;
    bw_us = pr_sget_num(op, PR_K_BW_US);
    bw_calls = pr_sget_num(op, PR_K_BW_CALLS);
    if (isnan(bw_calls)) { /* older: over every call or none */
        bw_calls = isnan(algbw) ? 0 : pr_sget_num(op, PR_K_CALLS);
        bw_us = isnan(algbw) ? NAN : us;
    }
    /* ... or left sized and timed calls unrated (old2023: operations
       whose Transit Time is 0) */
    if ((!isnan(bw_us) && !isnan(us) && fabs(bw_us - us) > 1e-6 * us) ||
        (isnan(algbw) && sized > 0 && timed > 0 &&
         !isnan(pr_sget_num(op, PR_K_BW_CALLS))))
        a->transit = 1;
    if (bw_calls > 0 && !isnan(algbw) && bw_us > 0) {
        a->bw_calls += bw_calls;
        a->bw_us += bw_us;
        a->bw_bytes += algbw * bw_us * 1000.0; /* GB/s x us = bytes / 1e3 */
    }
    return 1;
}

static int
emit_coll(cJSON *arr, const struct coll *c)
{
    struct pr_row_job_comm_op r;
    double algbw = c->us > 0 && c->timed == c->calls && !c->transit
                       ? c->bytes / (c->us * 1000.0)
                       : NAN;
    int all = !isnan(algbw);

    /* some calls sized or timed: the ranks' rates over the calls both
       (review 22g #4) */
    if (isnan(algbw) && c->bw_us > 0)
        algbw = c->bw_bytes / (c->bw_us * 1000.0);
    const char *coll = pr_comm_collective(c->name);
    int group = isnan(c->group_size) ? 0 : (int)c->group_size;
    double factor = pr_comm_bus_factor(coll, group > 0 ? group : 2);

    /* the bus factor needs the group's size, which neither the number of
       ranks here nor the world's size is */
    if (group <= 0 && factor != pr_comm_bus_factor(coll, 3))
        factor = NAN;

    r = (struct pr_row_job_comm_op){c->name,
                                    c->calls,
                                    c->bytes,
                                    c->timed > 0 ? c->us : NAN,
                                    c->timed > 0 ? c->us / c->timed : NAN,
                                    algbw,
                                    algbw * factor,
                                    c->timed,
                                    c->sized,
                                    c->sized > 0 ? c->sized_bytes : NAN,
                                    all ? c->calls : c->bw_calls};
    /* every rank gave link bytes alone (comm.c's link_note): busbw is
       those over the time, and no algbw */
    if (isnan(algbw) && c->link > 0 && c->link_us > 0 && c->timed == c->calls) {
        r.busbw_gbps = c->link / (c->link_us * 1000.0);
        /* as a rank's: 0 where every call is (bw_calls names the
           calls of algbw there), the count where some are left out */
        r.bw_calls = c->link_named ? c->link_calls : r.bw_calls;
    }
    return pr_rows_write(arr, PR_RO_DISTRIBUTED_COMM_OPS, &r, 1);
}

/* Sum each collective over the ranks; bandwidths from the sums. */
static void
emit_comm_ops(const struct wk *w, size_t n, cJSON *arr, int *ok)
{
    struct colls cs = {0};
    size_t i;

    for (i = 0; i < n && *ok; i++) {
        const cJSON *c = pr_sget(w[i].run, PR_K_COMMUNICATION);
        const cJSON *op;

        cJSON_ArrayForEach(op, pr_sget(c, PR_K_OPS))
        {
            if (*ok && !add_op(&cs, op))
                *ok = 0;
        }
    }
    for (i = 0; i < cs.n && *ok; i++)
        *ok = emit_coll(arr, &cs.v[i]);
    free(cs.v);
}

/* The split of torch_npu's own step table (step_trace_time.csv, or its
 * analysis.db twin) where the run holds one: Computing - Overlapped,
 * Overlapped, Communication(Not Overlapped) and Free, per step as the
 * producer averages them.  The task list of an export may hold far less
 * than the step table counts (torch_npu/old2023: 21 tasks, 37 ms of a
 * 292 ms step whose table records 75 ms Computing and 147 ms not
 * overlapped), and a table under the producer's names must show the
 * producer's numbers (third review, finding 1).  1 when taken. */
static int
producer_split(const cJSON *run, struct wk *w)
{
    const cJSON *ph = pr_sget(run, PR_K_STEP_PHASES),
                *m = pr_sget(ph, PR_K_MEAN);
    const char *src = pr_sget_str_or(ph, PR_K_SOURCE, "");
    double comp = pr_sget_num(m, PR_K_COMPUTING_US);
    double over = pr_sget_num(m, PR_K_OVERLAPPED_US);
    double alone = pr_sget_num(m, PR_K_COMMUNICATION_NOT_OVERLAPPED_US);
    double free_us = pr_sget_num(m, PR_K_FREE_US);

    if (strcmp(src, "ascend_cluster_analyse") == 0 && !isnan(comp) &&
        !isnan(alone)) {
        /* MindSpore's cluster table (review 28a #2): computation_time and
           communication_alone_time, averaged as its own mean (steps 2..n:
           ms_cluster4's first row is the 2.04 s warm-up); it has no
           overlap or free column, and the export no compute task to
           overlap with, so those are not known */
        w->comp = comp;
        w->overlap = NAN;
        w->comm = alone;
        w->other = NAN;
        return 1;
    }
    if ((strcmp(src, "step_trace_time.csv") != 0 &&
         strcmp(src, "analysis.db StepTraceTime") != 0) ||
        isnan(comp) || isnan(alone) || isnan(free_us))
        return 0;
    if (isnan(over) || over < 0)
        over = 0;
    if (over > comp)
        over = comp;
    w->comp = comp - over;
    w->overlap = over;
    w->comm = alone;
    w->other = free_us;
    return 1;
}

/* MindSpore's step trace as the producer's split where the export holds
 * no compute task (step_trace.compute_tasks false: its tasks, if any, are
 * the communication operators alone).  The task-based split reads such a
 * rank as computing nothing and free most of the step (review30a #1:
 * ms_ut "Computing 0, Free 29.1 ms (86.5%)" under FP+BP 28.1 ms), so the
 * step trace's phases decide, averaged over its steps: computation =
 * fp_and_bp; overlap not known (no compute task to overlap with);
 * communication = the collectives' time in the tail; other =
 * iteration_interval and the rest of the tail.  Without any task
 * (ms_fixtures' rank10) the collectives are not known, nor is what
 * they leave of the tail.  1 when taken. */
static int
step_trace_split(const cJSON *run, struct wk *w)
{
    const cJSON *st = pr_sget(run, PR_K_STEP_TRACE), *s;
    double fp = 0, ii = 0, tail = 0, tail_comm = 0, k = 0;
    int comm_known = 1;

    if (!cJSON_IsFalse(pr_sget(st, PR_K_COMPUTE_TASKS)) ||
        !pr_sget_is(pr_sget_str(st, PR_K_SOURCE), "step_trace_raw"))
        return 0;
    cJSON_ArrayForEach(s, pr_sget(st, PR_K_STEPS))
    {
        double f = pr_sget_num(s, PR_K_FP_AND_BP_US),
               t = pr_sget_num(s, PR_K_TAIL_US),
               i = pr_sget_num(s, PR_K_ITERATION_INTERVAL_US),
               fc = pr_sget_num(s, PR_K_FP_AND_BP_TASKS_US),
               tc = pr_sget_num(s, PR_K_TAIL_TASKS_US);

        if (isnan(f) || isnan(t))
            continue;
        fp += f;
        tail += t;
        ii += isnan(i) ? 0 : i;
        comm_known &= !isnan(fc) && !isnan(tc);
        tail_comm += isnan(tc) ? 0 : (tc < t ? tc : t);
        k++;
    }
    if (!(k > 0) || !(fp > 0))
        return 0;
    w->comp = fp / k;
    /* what computes beside a collective is not known without the
       compute tasks: overlap (and HCCL overlapped) stay null */
    w->overlap = NAN;
    w->comm = comm_known ? tail_comm / k : NAN;
    w->other = comm_known ? (ii + tail - tail_comm) / k : NAN;
    return 1;
}

static void
collect_workers(const cJSON *runs, struct wk *w, size_t n)
{
    const cJSON *run;
    size_t i = 0;

    cJSON_ArrayForEach(run, runs)
    {
        const cJSON *c = pr_sget(run, PR_K_COMMUNICATION);
        const char *worker = pr_sget_str(run, PR_K_WORKER);
        if (i == n)
            break;
        w[i].run = run;
        w[i].worker = worker ? worker : "";
        w[i].rank = rank_of(run, w[i].worker);
        w[i].comp = pr_sget_num(c, PR_K_COMPUTATION_US);
        w[i].overlap = pr_sget_num(c, PR_K_OVERLAP_US);
        w[i].comm = pr_sget_num(c, PR_K_COMMUNICATION_US);
        w[i].other = pr_sget_num(c, PR_K_OTHER_US);
        w[i].from_table = producer_split(run, &w[i]);
        w[i].split_source =
            pr_sget_str_or(pr_sget(run, PR_K_STEP_PHASES), PR_K_SOURCE, "");
        if (!w[i].from_table && step_trace_split(run, &w[i])) {
            w[i].from_table = 1;
            w[i].split_source = "step_trace_raw";
        }
        w[i].steps = (int)pr_sget_len(pr_sget(run, PR_K_STEPS));
        i++;
    }
}

/* Whether any run of w ran on an NPU (a device of kind "npu"). */
static int
any_npu(const struct wk *w, size_t n)
{
    const cJSON *d;
    size_t i;

    for (i = 0; i < n; i++) {
        /* the run's device kind is there before its devices are */
        if (pr_sget_is(pr_sget_str(w[i].run, PR_K_DEVICE_KIND), "npu"))
            return 1;
        cJSON_ArrayForEach(d, pr_sget(w[i].run, PR_K_DEVICES))
        {
            if (strcmp(pr_sget_str_or(d, PR_K_KIND, ""), "npu") == 0)
                return 1;
        }
    }
    return 0;
}

/* Ranks a lower bound of the world holds where no trace states it: one
 * more than the highest rank a run is or its communication links name
 * (ranks past 2^24 are a producer's "no peer" marker); NaN none. */
static double
links_floor(const struct wk *w, size_t n)
{
    double top = -1;
    const cJSON *l;
    size_t i;

    for (i = 0; i < n; i++) {
        double r = pr_sget_num(w[i].run, PR_K_RANK);

        if (r > top && r < 16777216.0)
            top = r;
        cJSON_ArrayForEach(
            l, pr_sget(pr_sget(w[i].run, PR_K_COMMUNICATION), PR_K_LINKS))
        {
            double a = pr_sget_num(l, PR_K_SRC_RANK),
                   b = pr_sget_num(l, PR_K_DST_RANK);

            if (a > top && a < 16777216.0)
                top = a;
            if (b > top && b < 16777216.0)
                top = b;
        }
    }
    return top >= 0 ? top + 1 : NAN;
}

/* 1 when the runs' world sizes all come from their communication groups
 * and differ: each rank's links name the peers it talked to, by their
 * rank within the group, so its count is a partial view (old2023: rank 0
 * names ranks 0-8, rank 1 ranks 0-7 and 9, of a group no file states the
 * size of), and where ranks the union names are missing, only its lower
 * bound holds, never an exact "8 missing" (review 20 #2).  Where every
 * rank the union names is here (pp4), it is the world as before. */
static int
groups_disagree(const struct wk *w, size_t n)
{
    double first = NAN;
    int differ = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        double ws = pr_sget_num(w[i].run, PR_K_WORLD_SIZE);

        if (isnan(ws))
            continue;
        if (!pr_sget_is(pr_sget_str(w[i].run, PR_K_WORLD_SIZE_SOURCE),
                        "communication groups"))
            return 0;
        differ |= !isnan(first) && ws != first;
        if (isnan(first))
            first = ws;
    }
    return differ;
}

enum pr_status
pr_distributed_build(cJSON *summary, struct pr_error *err)
{
    const cJSON *runs = pr_sget(summary, PR_K_RUNS);
    size_t n = pr_sget_len(runs), i;
    struct wk *w;
    struct pr_row_distributed r = {0};
    char cov[400], late[600], what[240], named[1200];
    const char *cut;
    cJSON *d, *workers, *comm_ops, *strag, *mis = NULL, *more;
    double world = 0;
    const char *source = NULL;
    size_t present;
    int ok = 1, all_ranks, world_known = 0, world_floor = 0;
    double floor;
    enum pr_status st = PR_OK;

    if (n == 0)
        return PR_OK;
    w = calloc(n, sizeof(*w));
    if (w == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    collect_workers(runs, w, n);
    qsort(w, n, sizeof(*w), cmp_wk);
    if (!is_distributed(w, n)) {
        free(w);
        return PR_OK;
    }
    for (i = 0; i < n; i++) {
        world_known |= pr_sget_num(w[i].run, PR_K_WORLD_SIZE) > 0;
        if (pr_sget_num(w[i].run, PR_K_WORLD_SIZE) > world) {
            world = pr_sget_num(w[i].run, PR_K_WORLD_SIZE);
            source = pr_sget_str(w[i].run, PR_K_WORLD_SIZE_SOURCE);
            world_floor = pr_sget_run_world_floor(w[i].run);
        }
    }
    /* the tables (typed rows of their own); more: the pipeline
       (stages.c) and the job's links (links.c) */
    workers = cJSON_CreateArray();
    comm_ops = cJSON_CreateArray();
    strag = cJSON_CreateArray();
    more = cJSON_CreateObject();
    ok = workers != NULL && comm_ops != NULL && strag != NULL && more != NULL;
    present = ranks_present(w, n);
    floor = links_floor(w, n);
    if (world_known && groups_disagree(w, n) && floor > (double)present) {
        world_known = 0;
        world = 0;
        source = NULL;
    }
    /* one rank whose world is the ranks its groups name: its own view, a
       lower bound (old2023's rank 0 alone: at least 9, never "1 of 9");
       ranks that agree on their groups keep it (issue #30) */
    if (world_known && present == 1 && world_floor && world > 1) {
        floor = isnan(floor) || world > floor ? world : floor;
        world_known = 0;
        world = 0;
        source = NULL;
    }
    if (world_known && world < (double)present)
        world = (double)present; /* a group's lower bound below the ranks */
    /* an Ascend job's world is its groups' or unknown, never the number
       of ranks here (issue #30); other producers keep the plugin's count */
    if (!world_known && !any_npu(w, n)) {
        world = (double)present;
        world_known = 1;
        source = NULL;
    }
    r.world_size = world_known ? world : NAN;
    r.world_size_source = world_known ? source : NULL;
    /* an Ascend job's words: tasks and HCCL, never NCCL (issue #30) */
    r.method =
        any_npu(w, n)
            ? "per step: computation = device task time not overlapped "
              "by communication, overlap = both at once, communication = "
              "HCCL task time alone (the kernel table's collective family "
              "on the NPU), other = the rest of the step; averaged over "
              "steps"
            : "per step: computation = kernel time (host operator time "
              "in a run without kernels) not overlapped by "
              "communication, overlap = both at once, communication = "
              "collective time alone (kernels of the kernel table's "
              "collective family on the device: NCCL, RCCL, HCCL, DeepEP, "
              "symmetric memory, custom all-reduce ...; "
              "Gloo ops on the host), other = the rest of the step; "
              "averaged over steps";
    for (i = 0; i < n && !w[i].from_table; i++)
        ;
    r.method_producer =
        i == n ? NULL
        : pr_sget_is(w[i].split_source, "step_trace_raw")
            ? "a MindSpore rank whose export holds no compute task takes "
              "its step trace's split instead (step_trace_raw): "
              "computation = fp_and_bp, overlap not known (no compute "
              "task to overlap with), communication = the "
              "collectives' time in the tail, other = iteration_interval "
              "and the rest of the tail (not known without any task), "
              "averaged over the steps (workers[].split_source)"
        : pr_sget_is(w[i].split_source, "ascend_cluster_analyse")
            ? "a rank with MindSpore's cluster table "
              "(ascend_cluster_analyse_*.csv) takes its split instead: "
              "computation = computation_time, communication = "
              "communication_alone_time, averaged as the table's own "
              "mean (a pipeline's warm-up first step left out); overlap "
              "and other are not known, the table having no such column "
              "(workers[].split_source)"
            : "a rank with torch_npu's own step table "
              "(step_trace_time.csv) takes its split instead: "
              "computation = Computing - Overlapped, overlap = "
              "Overlapped, communication = Communication(Not "
              "Overlapped), other = Free, averaged as the producer "
              "averages them (workers[].split_source)";
    all_ranks =
        emit_coverage(present, world, world_known, floor, &r, cov, sizeof(cov));
    /* one rank whose HCCL tasks name the rank it waited for: the note
       says so, written once */
    if (present == 1)
        r.coverage_note =
            one_rank_late(w[0].run, r.coverage_note, late, sizeof(late));
    /* where the job's late rank is named and missing, or its ranks here
       wait alike (job.c), the note says so instead of "no straggler is
       named" (review 9 #5), the job's note the same text */
    cut = r.coverage_note != NULL
              ? strstr(r.coverage_note, ": no straggler is named")
              : NULL;
    if (cut != NULL &&
        pr_job_late_clause(runs, r.world_size, what, sizeof(what))) {
        snprintf(named, sizeof(named), "%.*s: %s", (int)(cut - r.coverage_note),
                 r.coverage_note, what);
        r.coverage_note = named;
    }
    if (ok)
        emit_workers(w, n, workers, &mis, &ok);
    if (ok)
        emit_comm_ops(w, n, comm_ops, &ok);
    if (ok &&
        pr_stages_build(cJSON_GetObjectItemCaseSensitive(summary, PR_K_RUNS),
                        more, err) != PR_OK)
        st = PR_E_NOMEM;
    /* after the stages: a straggler is judged among its stage's ranks */
    if (ok && st == PR_OK)
        emit_stragglers(w, n, all_ranks,
                        cJSON_GetObjectItemCaseSensitive(more, PR_K_PIPELINE),
                        strag, &ok);
    free(w);
    /* a saved run's damaged link row: PR_E_FORMAT, its path */
    if (ok && st == PR_OK)
        st = pr_comm_links_job(runs, more, err);
    r.workers = workers;
    r.step_count_mismatch = mis;
    r.comm_ops = comm_ops;
    r.stragglers = strag;
    r.pipeline = cJSON_GetObjectItemCaseSensitive(more, PR_K_PIPELINE);
    r.link_types = cJSON_GetObjectItemCaseSensitive(more, PR_K_LINK_TYPES);
    r.link_groups = cJSON_GetObjectItemCaseSensitive(more, PR_K_LINK_GROUPS);
    if (r.link_types == NULL) /* no run gives per-link traffic */
        pr_rows_omit(PR_RO_DISTRIBUTED, &r, PR_SR_DISTRIBUTED_PR_K_LINK_TYPES);
    if (r.link_groups == NULL)
        pr_rows_omit(PR_RO_DISTRIBUTED, &r, PR_SR_DISTRIBUTED_PR_K_LINK_GROUPS);
    d = ok && st == PR_OK ? pr_rows_row(PR_RO_DISTRIBUTED, &r) : NULL;
    cJSON_Delete(workers);
    cJSON_Delete(comm_ops);
    cJSON_Delete(strag);
    cJSON_Delete(mis);
    cJSON_Delete(more);
    if (st != PR_OK)
        return st;
    if (d != NULL && pr_sput(summary, PR_K_DISTRIBUTED, d))
        return PR_OK;
    cJSON_Delete(d);
    return pr_error_set(err, PR_E_NOMEM, "out of memory (distributed)");
}
