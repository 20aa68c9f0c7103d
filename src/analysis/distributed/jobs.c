/* jobs.c - the runs of a summary grouped into jobs (jobs.h): placed folder
 * by folder, split where distributedInfo says two processes cannot be one
 * job, joined across folders where it says they are, then each job's
 * distributed and job views built over its runs alone. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../internal.h"
#include "profreport/distributed.h"
#include "profreport/job.h"
#include "profreport/jobs.h"
#include "profreport/keys.h"
#include "profreport/rows.h"
#include "profreport/sget.h"

/* A start before 2001 or after 2096 is no epoch time: the trace's clock
 * is a device's or relative, and says nothing about when the job ran. */
#define EPOCH_MIN_NS 1e18
#define EPOCH_MAX_NS 4e18
#define DESCRIBE_MAX 16    /* jobs named in the message */
#define NAME_MAX_BYTES 512 /* a job's name */

/* One run as the grouping sees it. */
struct jr {
    const cJSON *run;
    const char *worker, *span;
    char *dir;           /* owned: the folder of its input */
    double rank, ws, t0; /* NAN when unknown */
    const char *backend; /* "" when unknown; borrowed from the run */
    const char *device;  /* its first device's name; "" when none */
    const char *kind;    /* its device kind ("npu", "gpu"); "" unknown */
    /* its folder holds a rank claimed by runs of two device kinds (the
       rank then, NAN none): the kinds are split before the ranks */
    double kind_clash;
    int memtl; /* a PyTorch memory timeline, no trace */
    size_t group;
    /* a run that opened a group beside others of its folder: why it did
       not join the nearest (SPLIT_*, 0 none), that group's first run and
       how far apart they started (ns; NAN unknown) */
    int split;
    size_t split_from;
    double split_gap;
};

/* Why a run did not join a group of its folder (conflicts; place). */
#define SPLIT_DIST 1     /* distributedInfo: world size, backend or rank */
#define SPLIT_WS 32      /* with SPLIT_DIST: the world sizes differ */
#define SPLIT_BACKEND 64 /* with SPLIT_DIST: the backends differ */
#define SPLIT_SEEN 2     /* a group of the run's folder */
#define SPLIT_DEVICE 4   /* no rank, another device model */
#define SPLIT_MEMTL 8    /* a memory timeline beside a trace */
#define SPLIT_APART 16   /* started more than PR_JOBS_WINDOW_NS apart */
#define SPLIT_KIND 128   /* another device kind, where a rank is on both */

/* What is known of a group, for the joins across folders. */
struct jg {
    const char *dir;
    double ws, t_lo, t_hi; /* ws NAN unless every run says the same */
    const char *backend;
    size_t n, first;
    int all_ranks;   /* every run has a rank */
    size_t off, cnt; /* its ranks in the sorted rank array */
};

enum pr_status
pr_jobs_note_origin(cJSON *run, const char *path, const struct pr_trace *t,
                    struct pr_error *err)
{
    cJSON *o = cJSON_CreateObject();
    double t0 = NAN;
    int ok = o != NULL;

    if (t->n_events > 0)
        t0 = (double)t->events[0].ts_ns +
             (t->has_base_time ? (double)t->base_time_ns : 0.0);
    pr_emit_str(o, PR_K_PATH, path, &ok);
    pr_emit_num_or_null(
        o, "t0_ns", t0 >= EPOCH_MIN_NS && t0 <= EPOCH_MAX_NS ? t0 : NAN, &ok);
    pr_emit_str(o, PR_K_BACKEND,
                t->backend != PR_STR_NONE ? pr_trace_str(t, t->backend) : "",
                &ok);
    pr_emit_str(o, PR_K_FORMAT,
                t->format != PR_STR_NONE ? pr_trace_str(t, t->format) : "",
                &ok);
    if (ok && cJSON_AddItemToObject(run, PR_JOBS_ORIGIN, o))
        return PR_OK;
    if (!ok)
        cJSON_Delete(o);
    return pr_error_set(err, PR_E_NOMEM, "out of memory");
}

/* A producer's folder for one rank: torch_npu's "{worker}_{time}_ascend_pt",
 * MindSpore's "..._ascend_ms", CANN's "PROF_...".  The job is the folder
 * that holds them. */
static int
rank_folder(const char *name, size_t len)
{
    return (len > 10 && (memcmp(name + len - 10, "_ascend_pt", 10) == 0 ||
                         memcmp(name + len - 10, "_ascend_ms", 10) == 0)) ||
           (len > 5 && memcmp(name, "PROF_", 5) == 0);
}

/* The length of p[0..len) up to its outermost folder for one rank. */
static size_t
above_rank_folder(const char *p, size_t len)
{
    size_t b = 0, e;

    while (b < len) {
        for (e = b; e < len && p[e] != '/'; e++)
            ;
        if (e > b && rank_folder(p + b, e - b))
            return b > 1 ? b - 1 : b;
        b = e + 1;
    }
    return len;
}

/* The folder a run came from: the input itself when it is a folder (a
 * producer's output), else the folder holding the file; cut above a
 * producer's folder for one rank.  "" for a bare file name. */
static char *
dir_of(const char *path)
{
    struct stat st;
    size_t len = strlen(path);
    char *d;

    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        while (len > 0 && path[len - 1] != '/')
            len--;
    }
    while (len > 1 && path[len - 1] == '/')
        len--;
    len = above_rank_folder(path, len);
    d = malloc(len + 1);
    if (d != NULL) {
        memcpy(d, path, len);
        d[len] = '\0';
    }
    return d;
}

/* The input of a run read from a saved summary, matched by worker and
 * span in order (runs and inputs are added in pairs, and the runs' sort
 * is stable); NULL none. */
static const cJSON *
saved_input(const cJSON *inputs, unsigned char *used, const cJSON *run)
{
    const char *w = pr_sget_str_or(run, PR_K_WORKER, "");
    const char *s = pr_sget_str_or(run, PR_K_SPAN, "");
    const cJSON *in;
    size_t k = 0;

    cJSON_ArrayForEach(in, inputs)
    {
        if (!used[k] && strcmp(pr_sget_str_or(in, PR_K_WORKER, ""), w) == 0 &&
            strcmp(pr_sget_str_or(in, PR_K_SPAN, ""), s) == 0) {
            used[k] = 1;
            return in;
        }
        k++;
    }
    return NULL;
}

/* torch.profiler's export_memory_timeline_raw (the memory_timeline format):
 * the memory of one process over time, no events of a trace.  Its run is
 * the trace's companion, not another process of a job: beside trace runs
 * it is never a rank of their job (issue #29), and it has no rank,
 * world size or steps to be one by. */
static int
is_memtl(const char *format)
{
    return strcmp(format, "memory_timeline") == 0;
}

/* A numeric span of 13 digits or more is the tb plugin's epoch time in
 * ms ("rank0.1714525200123.pt.trace.json"): a start when the trace's own
 * is not at hand. */
static double
span_time(const cJSON *run)
{
    const char *s = pr_sget_str_or(run, PR_K_SPAN, "");
    size_t i;

    for (i = 0; s[i] >= '0' && s[i] <= '9'; i++)
        ;
    if (i < 13 || i > 16 || s[i] != '\0')
        return NAN;
    return strtod(s, NULL) * 1e6;
}

static int
collect(const cJSON *summary, struct jr *v, size_t n)
{
    const cJSON *inputs = pr_sget(summary, PR_K_INPUTS), *run;
    unsigned char *used = calloc(pr_sget_len(inputs) + 1, 1);
    size_t i = 0;

    if (used == NULL)
        return 0;
    cJSON_ArrayForEach(run, pr_sget(summary, PR_K_RUNS))
    {
        const cJSON *o = pr_sget(run, PR_JOBS_ORIGIN);
        const cJSON *in = o ? NULL : saved_input(inputs, used, run);
        if (i == n)
            break;
        v[i].run = run;
        v[i].worker = pr_sget_str_or(run, PR_K_WORKER, "");
        v[i].span = pr_sget_str_or(run, PR_K_SPAN, "");
        v[i].rank = pr_sget_num(run, PR_K_RANK);
        v[i].ws = pr_sget_num(run, PR_K_WORLD_SIZE);
        /* a lower bound (the largest group a rank's files show) differs
           from rank to rank of one job: it does not split jobs */
        if (strcmp(pr_sget_str_or(run, PR_K_WORLD_SIZE_SOURCE, ""),
                   "communication groups") == 0)
            v[i].ws = NAN;
        v[i].t0 = o ? pr_sget_num(o, "t0_ns") : span_time(run);
        v[i].backend = pr_sget_str_or(o, PR_K_BACKEND, "");
        v[i].device =
            pr_sget_str_or(pr_sget_first(run, PR_K_DEVICES), PR_K_NAME, "");
        v[i].kind = pr_sget_str_or(run, PR_K_DEVICE_KIND, "");
        v[i].kind_clash = NAN;
        v[i].memtl = is_memtl(pr_sget_str_or(o ? o : in, PR_K_FORMAT, ""));
        v[i].dir = dir_of(pr_sget_str_or(o ? o : in, PR_K_PATH, ""));
        if (v[i++].dir == NULL)
            break;
    }
    free(used);
    return i == n && (n == 0 || v[n - 1].dir != NULL);
}

static int
known(double x)
{
    return !isnan(x);
}

static int
differ(double a, double b)
{
    return known(a) && known(b) && a != b;
}

/* 0: run a may join a group holding run b; else why not (SPLIT_*). */
static int
conflicts(const struct jr *a, const struct jr *b)
{
    if (a->memtl != b->memtl) /* a memory timeline beside a trace */
        return SPLIT_MEMTL;
    /* a folder where one rank is claimed by an NPU run and a GPU run
       (review30a #10: ms_fixtures' MindSpore GPU fixture rank0-gpu beside
       the NPU ranks 0, 1 and 10) holds two device kinds' captures: split
       by kind first, so that the rank clash does not send the NPU rank 0
       away from its NPU ranks */
    if ((known(a->kind_clash) || known(b->kind_clash)) && a->kind[0] &&
        b->kind[0] && strcmp(a->kind, b->kind) != 0)
        return SPLIT_KIND;
    if (differ(a->ws, b->ws))
        return SPLIT_DIST | SPLIT_WS;
    if (a->backend[0] && b->backend[0] && strcmp(a->backend, b->backend))
        return SPLIT_DIST | SPLIT_BACKEND;
    /* a trace without distributedInfo on another device model is another
       capture (a V100 run beside an A100 run), not a rank of this job */
    if ((!known(a->rank) || !known(b->rank)) && a->device[0] && b->device[0] &&
        strcmp(a->device, b->device) != 0)
        return SPLIT_DEVICE;
    return known(a->rank) && a->rank == b->rank &&
                   (strcmp(a->worker, b->worker) != 0 ||
                    !strcmp(a->span, b->span))
               ? SPLIT_DIST
               : 0;
}

/* Run i opens a group beside groups of its folder: note why it did not
 * join the one that started nearest (the first seen where no start is
 * known), for the report's sentence on each split (review 21 #4). */
static void
note_split(struct jr *v, const size_t *order, size_t done, size_t i,
           const double *dist, const unsigned char *bad)
{
    size_t j, near = SIZE_MAX;
    int why;

    (void)bad;
    for (j = 0; j < done; j++) {
        const struct jr *b = &v[order[j]];
        if (strcmp(b->dir, v[i].dir) != 0 || b->memtl || v[i].memtl)
            continue;
        if (near == SIZE_MAX || dist[b->group] < dist[v[near].group])
            near = order[j];
    }
    if (near == SIZE_MAX)
        return;
    v[i].split_from = near;
    v[i].split_gap = isfinite(dist[v[near].group]) ? dist[v[near].group] : NAN;
    if (isfinite(v[i].split_gap) &&
        v[i].split_gap > (double)PR_JOBS_WINDOW_NS) {
        v[i].split = SPLIT_APART;
        return;
    }
    /* the run of that group it conflicts with, and how */
    for (j = 0; j < done; j++) {
        const struct jr *b = &v[order[j]];
        if (strcmp(b->dir, v[i].dir) != 0 || b->group != v[near].group ||
            (why = conflicts(&v[i], b)) == 0)
            continue;
        v[i].split_from = order[j];
        v[i].split = why;
        return;
    }
    v[i].split = SPLIT_DIST;
}

/* The group of its folder that run `i` joins, or a new one: the group of
 * its own worker (spans of one process), else the one that started
 * nearest among those it does not conflict with. */
static size_t
place(struct jr *v, const size_t *order, size_t done, size_t i, size_t *n_grp,
      double *dist, unsigned char *bad)
{
    size_t j, g, best = SIZE_MAX;

    /* each memory timeline is a part of its own: its curve, peak and
       categories never summed with another file's (memtl13) */
    if (v[i].memtl)
        return (*n_grp)++;
    memset(bad, 0, *n_grp);
    for (g = 0; g < *n_grp; g++)
        dist[g] = INFINITY;
    for (j = 0; j < done; j++) {
        const struct jr *b = &v[order[j]];
        if (strcmp(b->dir, v[i].dir) != 0)
            continue;
        if (strcmp(b->worker, v[i].worker) == 0 &&
            strcmp(b->span, v[i].span) != 0 && !b->memtl)
            return b->group; /* two spans of one process */
        bad[b->group] |= conflicts(&v[i], b);
        if (known(v[i].t0) && known(b->t0))
            dist[b->group] = fmin(dist[b->group], fabs(v[i].t0 - b->t0));
        bad[b->group] |= SPLIT_SEEN; /* a group of this folder */
    }
    for (g = 0; g < *n_grp; g++)
        if (bad[g] == SPLIT_SEEN &&
            !(dist[g] > (double)PR_JOBS_WINDOW_NS && isfinite(dist[g])) &&
            (best == SIZE_MAX || dist[g] < dist[best]))
            best = g;
    if (best != SIZE_MAX)
        return best;
    note_split(v, order, done, i, dist, bad);
    return (*n_grp)++;
}

struct start {
    double t0;
    size_t idx;
};

static int
cmp_start(const void *pa, const void *pb)
{
    const struct start *a = pa, *b = pb;

    if (known(a->t0) != known(b->t0))
        return known(a->t0) ? -1 : 1;
    if (known(a->t0) && a->t0 != b->t0)
        return a->t0 < b->t0 ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Runs by start (unknown last), then position: a greedy placement in
 * that order pairs the ranks that started together.  0 on out-of-memory. */
static int
by_start(size_t *order, size_t n, const struct jr *v)
{
    struct start *s = calloc(n, sizeof(*s));
    size_t i;

    if (s == NULL)
        return 0;
    for (i = 0; i < n; i++)
        s[i] = (struct start){v[i].t0, i};
    qsort(s, n, sizeof(*s), cmp_start);
    for (i = 0; i < n; i++)
        order[i] = s[i].idx;
    free(s);
    return 1;
}

/* Place every run; returns the number of groups, 0 on out-of-memory. */
static size_t
split_folders(struct jr *v, size_t n)
{
    size_t *order = calloc(n, sizeof(*order)), i, n_grp = 0;
    double *dist = calloc(n, sizeof(*dist));
    unsigned char *bad = calloc(n, 1);

    if (order != NULL && dist != NULL && bad != NULL && by_start(order, n, v)) {
        for (i = 0; i < n; i++)
            v[order[i]].group = place(v, order, i, order[i], &n_grp, dist, bad);
    }
    free(order);
    free(dist);
    free(bad);
    return n_grp;
}

/* Two folders named alike but for their digits, side by side ("node0"
 * and "node1"): the layout of one job's ranks kept per node. */
static int
alike_dirs(const char *a, const char *b)
{
    const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
    size_t pa = sa ? (size_t)(sa - a) : 0, pb = sb ? (size_t)(sb - b) : 0;
    int digits = 0;

    if (pa != pb || strncmp(a, b, pa) != 0)
        return 0;
    a += pa;
    b += pb;
    while (*a || *b) {
        if ((*a >= '0' && *a <= '9') || (*b >= '0' && *b <= '9')) {
            digits = 1;
            a += *a >= '0' && *a <= '9';
            b += *b >= '0' && *b <= '9';
            continue;
        }
        if (*a++ != *b++)
            return 0;
    }
    return digits;
}

static int
cmp_dbl(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;

    return (a > b) - (a < b);
}

/* Each group's facts, and its ranks sorted in rk[g.off .. g.off+g.cnt). */
static void
facts(const struct jr *v, size_t n, struct jg *g, size_t n_grp, double *rk)
{
    size_t i, k, off = 0;

    for (k = 0; k < n_grp; k++)
        g[k] = (struct jg){NULL, NAN, INFINITY, -INFINITY, "", 0, 0, 1, 0, 0};
    for (i = 0; i < n; i++) {
        struct jg *G = &g[v[i].group];
        if (G->n++ == 0) {
            G->dir = v[i].dir;
            G->ws = v[i].ws;
            G->first = i;
        } else if (!(v[i].ws == G->ws)) {
            G->ws = NAN; /* unknown or mixed: no evidence to join on */
        }
        if (v[i].backend[0])
            G->backend = v[i].backend;
        G->all_ranks &= known(v[i].rank);
        if (known(v[i].t0)) {
            G->t_lo = fmin(G->t_lo, v[i].t0);
            G->t_hi = fmax(G->t_hi, v[i].t0);
        }
    }
    for (k = 0; k < n_grp; k++) {
        g[k].off = off;
        off += g[k].n;
    }
    for (i = 0; i < n; i++)
        rk[g[v[i].group].off + g[v[i].group].cnt++] = v[i].rank;
    for (k = 0; k < n_grp; k++)
        qsort(rk + g[k].off, g[k].cnt, sizeof(*rk), cmp_dbl);
}

static int
disjoint(const struct jg *a, const struct jg *b, const double *rk)
{
    size_t i = 0, j = 0;

    while (i < a->cnt && j < b->cnt) {
        double x = rk[a->off + i], y = rk[b->off + j];
        if (x == y)
            return 0;
        i += x < y;
        j += y < x;
    }
    return 1;
}

/* Two groups of different folders are one job when distributedInfo says
 * so: the same world size and backend, ranks all known and disjoint, and
 * started together.  With no world size (Ascend exports) or no start
 * known, only side-by-side folders named alike ("test_rank_0" and
 * "test_rank_1") are joined. */
static int
joinable(const struct jg *a, const struct jg *b, const double *rk)
{
    int alike;

    if (a->n == 0 || b->n == 0 || strcmp(a->dir, b->dir) == 0 ||
        !a->all_ranks || !b->all_ranks ||
        (a->backend[0] && b->backend[0] && strcmp(a->backend, b->backend)))
        return 0;
    if ((known(a->ws) || known(b->ws)) && !(a->ws >= 2 && a->ws == b->ws))
        return 0;
    alike = alike_dirs(a->dir, b->dir);
    if (isfinite(a->t_lo) && isfinite(b->t_lo)) {
        if (fmax(a->t_lo, b->t_lo) - fmin(a->t_hi, b->t_hi) >
            (double)PR_JOBS_WINDOW_NS)
            return 0;
        alike |= known(a->ws);
    }
    return alike && disjoint(a, b, rk);
}

/* Join groups across folders until no two can be; 0 on out-of-memory. */
static int
join_folders(struct jr *v, size_t n, size_t n_grp)
{
    struct jg *g = calloc(n_grp, sizeof(*g));
    double *rk = calloc(n, sizeof(*rk));
    size_t a, b, i;
    int joined = 1;

    if (g == NULL || rk == NULL) {
        free(g);
        free(rk);
        return 0;
    }
    while (joined) {
        joined = 0;
        facts(v, n, g, n_grp, rk);
        for (a = 0; a < n_grp && !joined; a++)
            for (b = a + 1; b < n_grp && !joined; b++)
                joined = joinable(&g[a], &g[b], rk);
        for (i = 0; joined && i < n; i++)
            if (v[i].group == b - 1)
                v[i].group = a - 1;
    }
    free(g);
    free(rk);
    return 1;
}

/* Groups renumbered in the order of their first run; returns how many. */
static size_t
renumber(struct jr *v, size_t n, size_t n_grp)
{
    size_t *map = malloc((n_grp ? n_grp : 1) * sizeof(*map)), i, k = 0;

    if (map == NULL)
        return 0;
    for (i = 0; i < n_grp; i++)
        map[i] = SIZE_MAX;
    for (i = 0; i < n; i++) {
        if (map[v[i].group] == SIZE_MAX)
            map[v[i].group] = k++;
        v[i].group = map[v[i].group];
    }
    free(map);
    return k;
}

/* The length of the folder prefix that every run's folder (of group g,
 * or of all runs when g is SIZE_MAX) shares, cut at a '/'. */
static size_t
common_len(const struct jr *v, size_t n, size_t g)
{
    const char *d0 = NULL;
    size_t len = 0, i, k;
    int cut = 1;

    for (i = 0; i < n; i++) {
        if (g != SIZE_MAX && v[i].group != g)
            continue;
        if (d0 == NULL) {
            d0 = v[i].dir;
            len = strlen(d0);
        }
        for (k = 0; k < len && v[i].dir[k] == d0[k]; k++)
            ;
        len = k;
    }
    while (cut && len > 0) {
        for (i = 0, cut = 0; i < n && !cut; i++)
            cut = (g == SIZE_MAX || v[i].group == g) && v[i].dir[len] != '\0' &&
                  v[i].dir[len] != '/';
        len -= (size_t)cut;
    }
    return len;
}

/* Each job's folder: the folder its runs share.  NULL on out-of-memory. */
static char **
job_paths(const struct jr *v, size_t n, size_t n_jobs)
{
    char **p = calloc(n_jobs, sizeof(*p));
    size_t k, i, len;

    for (k = 0; p != NULL && k < n_jobs; k++) {
        for (i = 0; v[i].group != k; i++)
            ;
        len = common_len(v, n, k);
        p[k] = malloc(len + 2);
        if (p[k] == NULL)
            break;
        if (len == 0 && v[i].dir[0] == '/')
            len = 1; /* the root folder */
        memcpy(p[k], v[i].dir, len);
        p[k][len] = '\0';
    }
    if (p != NULL && k < n_jobs) {
        for (i = 0; i < k; i++)
            free(p[i]);
        free(p);
        return NULL;
    }
    return p;
}

/* Whether job k's runs are memory timelines (is_memtl: a group holds
 * them alone, conflicts). */
static int
job_memtl(const struct jr *v, size_t n, size_t k)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (v[i].group == k)
            return v[i].memtl;
    return 0;
}

/* The worker of a trace beside memory timeline job k (same folder) whose
 * name the timeline's starts with, up to a '.' ("worker_a" for
 * worker_a.raw.json beside worker_a.pt.trace.json or
 * worker_a.1714521600000.pt.trace.json: torch.profiler's memory tutorial
 * names the trace and the timeline by one prefix, tensorboard_trace_handler
 * names a trace "{worker}.{time}.pt.trace.json"); the longest such, NULL
 * none.  A name is the only tie: the file holds no process or device. */
static int
named_after(const char *timeline, const char *worker, const char *best)
{
    size_t len = strlen(worker);

    return len > 0 && strncmp(timeline, worker, len) == 0 &&
           timeline[len] == '.' && (best == NULL || len > strlen(best));
}

static const char *
trace_worker(const struct jr *v, size_t n, size_t k)
{
    const struct jr *tl = NULL;
    const char *best = NULL;
    size_t i;

    for (i = 0; i < n && tl == NULL; i++)
        if (v[i].group == k && v[i].memtl)
            tl = &v[i];
    for (i = 0; tl != NULL && i < n; i++)
        if (!v[i].memtl && strcmp(v[i].dir, tl->dir) == 0 &&
            named_after(tl->worker, v[i].worker, best))
            best = v[i].worker;
    return best;
}

/* The worker of job k when the job is that one run and no other job of
 * its folder has a run of that worker: the name that tells it apart from
 * the folder's other jobs (three captures' kernel_details_910B_v1.csv,
 * ..._v2_pmu.csv and trace_view in one folder; review 21 #4); else NULL. */
static const char *
sole_worker(const struct jr *v, size_t n, char *const *paths, size_t n_jobs,
            size_t k)
{
    const struct jr *one = NULL;
    size_t i;

    for (i = 0; i < n; i++) {
        if (v[i].group != k)
            continue;
        if (one != NULL)
            return NULL;
        one = &v[i];
    }
    if (one == NULL || one->worker[0] == '\0')
        return NULL;
    for (i = 0; i < n; i++)
        if (v[i].group != k && v[i].group < n_jobs && !v[i].memtl &&
            strcmp(paths[v[i].group], paths[k]) == 0 &&
            strcmp(v[i].worker, one->worker) == 0)
            return NULL;
    return one->worker;
}

/* A job's name: its folder below the common one (the folder's own name
 * when it is the common one); where one folder holds several jobs of
 * traces, a job of one run by its worker (after that folder when it is
 * not the common one), the others "#2" and on.  Memory timelines are named by
 * their files, as stderr and the terminal name them ("worker_a.raw"; review 19
 * #9). */
static void
job_name(const struct jr *v, size_t n, char *const *paths, size_t n_jobs,
         size_t k, size_t common, char *buf, size_t cap)
{
    const char *d = paths[k], *rel = d + common, *base = strrchr(d, '/');
    const char *one;
    size_t j, nth = 0, of = 0, all = 0;
    int own;

    if (job_memtl(v, n, k)) { /* one run: its file, and its folder where
                                  another timeline's file has its name */
        const struct jr *tl = NULL;

        for (j = 0; j < n && tl == NULL; j++)
            if (v[j].group == k)
                tl = &v[j];
        for (j = 0; tl != NULL && j < n; j++)
            of += v[j].memtl && v[j].group != k &&
                  strcmp(v[j].worker, tl->worker) == 0;
        while (*rel == '/')
            rel++;
        snprintf(buf, cap, "%s%s%s", of > 0 && *rel ? rel : "",
                 of > 0 && *rel ? "/" : "", tl != NULL ? tl->worker : "?");
        return;
    }
    while (*rel == '/')
        rel++;
    own = *rel == '\0';
    if (own)
        rel = base != NULL && base[1] ? base + 1 : d[0] ? d : ".";
    for (j = 0; j < n_jobs; j++)
        all += strcmp(paths[j], d) == 0 && !job_memtl(v, n, j);
    /* "#n" counts the folder's jobs that its worker does not name */
    for (j = 0; all > 1 && j < n_jobs; j++)
        if (strcmp(paths[j], d) == 0 && !job_memtl(v, n, j) &&
            sole_worker(v, n, paths, n_jobs, j) == NULL) {
            of++;
            nth += j <= k;
        }
    one = all > 1 ? sole_worker(v, n, paths, n_jobs, k) : NULL;
    if (one != NULL && own) /* kernel_details_910B_v1.csv */
        snprintf(buf, cap, "%s", one);
    else if (one != NULL)
        snprintf(buf, cap, "%s/%s", rel, one);
    else if (of > 1)
        snprintf(buf, cap, "%s #%zu", rel, nth);
    else
        snprintf(buf, cap, "%s", rel);
}

/* The job view's "run" numbers index the job's runs: make them index the
 * summary's runs[]. */
static void
remap_runs(cJSON *job, const size_t *idx, size_t m)
{
    static const char *const refs[] = {"slowest", "median", "slowest_by_mean"};
    cJSON *r;
    size_t i;

    for (i = 0; i < 3; i++) {
        cJSON *run = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(job, refs[i]), PR_K_RUN);
        if (cJSON_IsNumber(run) && run->valuedouble >= 0 &&
            run->valuedouble < (double)m)
            cJSON_SetNumberValue(run, (double)idx[(size_t)run->valuedouble]);
    }
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(job, PR_K_PER_RANK))
    {
        cJSON *run = cJSON_GetObjectItemCaseSensitive(r, PR_K_RUN);
        if (cJSON_IsNumber(run) && run->valuedouble >= 0 &&
            run->valuedouble < (double)m)
            cJSON_SetNumberValue(run, (double)idx[(size_t)run->valuedouble]);
    }
}

/* entry["distributed"] and ["job"]: the views over job k's runs alone;
 * null for memory timelines (views_of). */
static enum pr_status
job_views(const struct jr *v, size_t n, size_t k, cJSON *entry,
          struct pr_error *err)
{
    cJSON *tmp = cJSON_CreateObject(), *arr = NULL, *d, *j;
    size_t *idx = calloc(n, sizeof(*idx)), i, m = 0;
    enum pr_status st = PR_E_NOMEM;

    if (job_memtl(v, n, k)) {
        cJSON_Delete(tmp);
        free(idx);
        if (cJSON_AddNullToObject(entry, PR_K_DISTRIBUTED) != NULL &&
            cJSON_AddNullToObject(entry, PR_K_JOB) != NULL)
            return PR_OK;
        return pr_error_set(err, PR_E_NOMEM, "out of memory (jobs)");
    }
    if (tmp != NULL && idx != NULL &&
        cJSON_AddNullToObject(tmp, PR_K_DISTRIBUTED))
        arr = cJSON_AddArrayToObject(tmp, PR_K_RUNS);
    for (i = 0; arr != NULL && i < n; i++)
        if (v[i].group == k) {
            if (!cJSON_AddItemReferenceToArray(arr,
                                               (cJSON *)(uintptr_t)v[i].run))
                arr = NULL;
            idx[m++] = i;
        }
    if (arr != NULL && (st = pr_distributed_build(tmp, err)) == PR_OK)
        st = pr_job_build(tmp, err);
    if (st == PR_OK) {
        d = cJSON_DetachItemFromObjectCaseSensitive(tmp, PR_K_DISTRIBUTED);
        j = cJSON_DetachItemFromObjectCaseSensitive(tmp, PR_K_JOB);
        remap_runs(j, idx, m);
        if (!cJSON_AddItemToObject(entry, PR_K_DISTRIBUTED, d))
            cJSON_Delete(d);
        if (!cJSON_AddItemToObject(entry, PR_K_JOB, j))
            cJSON_Delete(j);
    }
    cJSON_Delete(tmp);
    free(idx);
    if (st == PR_E_NOMEM && err->code != PR_E_NOMEM)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory (jobs)");
    return st;
}

/* Job k's runs and the ranks they hold (into entry), and its world size
 * (*ws: NAN where its runs differ or give none). */
static void
job_members(const struct jr *v, size_t n, size_t k, cJSON *entry, double *ws,
            int *ok)
{
    cJSON *runs = pr_emit_arr(entry, PR_K_RUNS, ok);
    cJSON *ranks = pr_emit_arr(entry, PR_K_RANKS, ok);
    double *rk = calloc(n, sizeof(*rk));
    size_t i, m = 0, seen = 0;

    if (rk == NULL)
        *ok = 0;
    for (i = 0; rk != NULL && i < n && *ok; i++) {
        if (v[i].group != k)
            continue;
        pr_emit_num(runs, NULL, (double)i, ok);
        if (known(v[i].rank))
            rk[m++] = v[i].rank;
        *ws = seen++ == 0 || v[i].ws == *ws ? v[i].ws : NAN;
    }
    if (rk != NULL)
        qsort(rk, m, sizeof(*rk), cmp_dbl);
    for (i = 0; i < m && *ok; i++)
        if (i == 0 || rk[i] != rk[i - 1])
            pr_emit_num(ranks, NULL, rk[i], ok);
    free(rk);
}

/* A gap between two starts in words: "12 min", "5 hours", "54 days",
 * "1.5 years". */
static void
gap_words(double ns, char *buf, size_t cap)
{
    double s = ns / 1e9, day = 86400.0;

    if (s < 7200)
        snprintf(buf, cap, "%.0f min", s / 60);
    else if (s < 2 * day)
        snprintf(buf, cap, "%.0f hours", s / 3600);
    else if (s < 730 * day)
        snprintf(buf, cap, "%.0f days", s / day);
    else
        snprintf(buf, cap, "%.1f years", s / (365.25 * day));
}

/* A device kind in a sentence: "npu" -> "NPUs". */
static const char *
kind_words(const char *kind)
{
    if (strcmp(kind, "npu") == 0)
        return "NPUs";
    if (strcmp(kind, "gpu") == 0)
        return "GPUs";
    if (strcmp(kind, "cpu") == 0)
        return "CPUs only";
    return kind;
}

/* Why job k is not one job with the job of its folder that started
 * nearest (note_split; review 21 #4): into buf, or "" for a folder's
 * first job. */
static void
split_note(const struct jr *v, size_t n, char *const *names, size_t k,
           char *buf, size_t cap)
{
    const struct jr *a = NULL, *b;
    char gap[48];
    size_t i;

    buf[0] = '\0';
    for (i = 0; i < n && a == NULL; i++)
        if (v[i].group == k && v[i].split != 0)
            a = &v[i];
    if (a == NULL)
        return;
    b = &v[a->split_from];
    if (b->group == k)
        return; /* joined again across folders */
    if (a->split == SPLIT_APART) {
        gap_words(a->split_gap, gap, sizeof(gap));
        snprintf(buf, cap,
                 "its first event is %s after the first of %s (more than "
                 "%lld min apart): a separate capture",
                 gap, names[b->group],
                 (long long)(PR_JOBS_WINDOW_NS / 60000000000LL));
    } else if (a->split == SPLIT_KIND) {
        double r = known(a->kind_clash) ? a->kind_clash : b->kind_clash;
        snprintf(buf, cap,
                 "it ran on %s and %s on %s, and their folder holds a rank "
                 "%.0f of each: the captures of two device kinds, not one "
                 "job",
                 kind_words(a->kind), names[b->group], kind_words(b->kind), r);
    } else if (a->split == SPLIT_DEVICE) {
        snprintf(buf, cap,
                 "it ran on %s and %s on %s, and the traces name no rank: "
                 "another capture, not a rank of it",
                 a->device, names[b->group], b->device);
    } else if (a->split & SPLIT_WS) {
        snprintf(buf, cap,
                 "its distributedInfo gives world size %.0f, that of %s %.0f",
                 a->ws, names[b->group], b->ws);
    } else if (a->split & SPLIT_BACKEND) {
        snprintf(buf, cap,
                 "its distributedInfo gives backend %s, that of %s %s",
                 a->backend, names[b->group], b->backend);
    } else if (known(a->rank) && a->rank == b->rank) {
        /* not "other0 of other0" where the job is named by that worker */
        int same = b->worker[0] && strcmp(names[b->group], b->worker) == 0;
        snprintf(buf, cap,
                 "it holds rank %.0f, which %s%s%s holds too: one rank is "
                 "not two workers of one job",
                 a->rank, b->worker[0] ? b->worker : "a run",
                 same ? "" : " of ", same ? "" : names[b->group]);
    } else {
        snprintf(buf, cap, "its distributedInfo conflicts with that of %s",
                 names[b->group]);
    }
}

/* Job k's row: its name, path and world size typed; its runs, ranks and
 * views the members job_members and job_views write into a work object,
 * moved into their slots by the one writer (pr_rows_row_from). */
static enum pr_status
emit_job(const struct jr *v, size_t n, size_t k, char *const *names,
         const char *path, cJSON *arr, struct pr_error *err)
{
    struct pr_row_job_entry row;
    char note[1400];
    cJSON *work = cJSON_CreateObject(), *e;
    enum pr_status st = PR_OK;
    int ok = work != NULL;

    memset(&row, 0, sizeof(row));
    row.name = names[k];
    split_note(v, n, names, k, note, sizeof(note));
    row.split_note = note[0] ? note : NULL;
    /* a consumer filters on it (review 19 #9) */
    row.kind = job_memtl(v, n, k) ? "memory_timeline" : "traces";
    /* a memory timeline's; null on a job of traces (every entry has
       every key of its row, typed_top.sh) */
    if (job_memtl(v, n, k))
        row.trace_worker = trace_worker(v, n, k);
    row.path = path;
    row.world_size = NAN;
    job_members(v, n, k, work, &row.world_size, &ok);
    if (ok)
        st = job_views(v, n, k, work, err);
    e = ok && st == PR_OK ? pr_rows_row_from(PR_RO_JOBS, &row, work) : NULL;
    cJSON_Delete(work);
    if (e != NULL && cJSON_AddItemToArray(arr, e))
        return PR_OK;
    cJSON_Delete(e);
    return st != PR_OK ? st : pr_error_set(err, PR_E_NOMEM, "out of memory");
}

/* summary["jobs"]: one entry per job, its views built over its runs. */
static enum pr_status
emit_jobs(cJSON *summary, const struct jr *v, size_t n, size_t n_jobs,
          struct pr_error *err)
{
    char **paths = job_paths(v, n, n_jobs);
    char **names = calloc(n_jobs ? n_jobs : 1, sizeof(*names));
    cJSON *arr = cJSON_CreateArray();
    size_t k, common = 0;
    int ok = paths != NULL && arr != NULL && names != NULL;
    enum pr_status st = PR_OK;

    if (ok)
        common = common_len(v, n, SIZE_MAX);
    for (k = 0; ok && k < n_jobs; k++) {
        names[k] = malloc(NAME_MAX_BYTES);
        if (names[k] == NULL)
            ok = 0;
        else
            job_name(v, n, paths, n_jobs, k, common, names[k], NAME_MAX_BYTES);
    }
    for (k = 0; ok && st == PR_OK && k < n_jobs; k++)
        st = emit_job(v, n, k, names, paths[k][0] ? paths[k] : ".", arr, err);
    for (k = 0; paths != NULL && k < n_jobs; k++)
        free(paths[k]);
    for (k = 0; names != NULL && k < n_jobs; k++)
        free(names[k]);
    free(names);
    free(paths);
    if (ok && st == PR_OK) {
        cJSON_DeleteItemFromObjectCaseSensitive(summary, PR_K_JOBS);
        if (cJSON_AddItemToObject(summary, PR_K_JOBS, arr))
            return PR_OK;
    }
    cJSON_Delete(arr);
    return st != PR_OK ? st : pr_error_set(err, PR_E_NOMEM, "out of memory");
}

/* Top-level distributed and job: null, each job has its own (or, for
 * memory timelines alone, none). */
static enum pr_status
null_views(cJSON *summary, struct pr_error *err)
{
    cJSON *a = cJSON_CreateNull(), *b = cJSON_CreateNull();

    if (a != NULL && b != NULL && pr_sput(summary, PR_K_DISTRIBUTED, a)) {
        a = NULL;
        cJSON_DeleteItemFromObjectCaseSensitive(summary, PR_K_JOB);
        if (cJSON_AddItemToObject(summary, PR_K_JOB, b))
            return PR_OK;
    }
    cJSON_Delete(a);
    cJSON_Delete(b);
    return pr_error_set(err, PR_E_NOMEM, "out of memory");
}

/* Mark the runs of each folder where one rank is claimed by runs of two
 * device kinds (jr.kind_clash). */
static void
mark_kind_clashes(struct jr *v, size_t n)
{
    size_t i, j, k;

    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            if (!known(v[i].rank) || v[i].rank != v[j].rank || !v[i].kind[0] ||
                !v[j].kind[0] || strcmp(v[i].kind, v[j].kind) == 0 ||
                strcmp(v[i].dir, v[j].dir) != 0 || known(v[i].kind_clash))
                continue;
            for (k = 0; k < n; k++)
                if (strcmp(v[k].dir, v[i].dir) == 0 && !known(v[k].kind_clash))
                    v[k].kind_clash = v[i].rank;
        }
}

/* Group the runs; returns the number of jobs, 0 on out-of-memory. */
static size_t
group(struct jr *v, size_t n)
{
    size_t n_grp;

    mark_kind_clashes(v, n);
    n_grp = split_folders(v, n);

    if (n_grp == 0 || !join_folders(v, n, n_grp))
        return 0;
    return renumber(v, n, n_grp);
}

static void
drop_origins(cJSON *summary)
{
    cJSON *run;

    cJSON_ArrayForEach(run,
                       cJSON_GetObjectItemCaseSensitive(summary, PR_K_RUNS))
        cJSON_DeleteItemFromObjectCaseSensitive(run, PR_JOBS_ORIGIN);
}

/* Whether every run is a memory timeline of one folder (none beside a
 * trace): no job.  Timelines of several folders are a part each, so
 * that each says its folder, as when each folder's were one part. */
static int
all_memtl(const struct jr *v, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (!v[i].memtl || strcmp(v[i].dir, v[0].dir) != 0)
            return 0;
    return n > 0;
}

enum pr_status
pr_jobs_build(cJSON *summary, struct pr_error *err)
{
    size_t n = pr_sget_len(pr_sget(summary, PR_K_RUNS)), i, n_jobs = 1;
    struct jr *v = calloc(n ? n : 1, sizeof(*v));
    enum pr_status st = PR_OK;

    if (v == NULL || !collect(summary, v, n) ||
        (n > 1 && (n_jobs = group(v, n)) == 0))
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK && all_memtl(v, n)) {
        /* memory timelines alone (each a part of its own): no ranks, no
           world size, no job (review 18 #5: two read as "2 ranks, world
           size 2") */
        cJSON_DeleteItemFromObjectCaseSensitive(summary, PR_K_JOBS);
        st = null_views(summary, err);
    } else if (st == PR_OK && n_jobs > 1) {
        st = null_views(summary, err);
        if (st == PR_OK)
            st = emit_jobs(summary, v, n, n_jobs, err);
    } else if (st == PR_OK) {
        cJSON_DeleteItemFromObjectCaseSensitive(summary, PR_K_JOBS);
        st = pr_distributed_build(summary, err);
        if (st == PR_OK)
            st = pr_job_build(summary, err);
    }
    for (i = 0; v != NULL && i < n; i++)
        free(v[i].dir);
    free(v);
    drop_origins(summary);
    return st;
}

/* An older summary's trace_worker for timeline `tl`: among the runs of
 * its entries of traces of the same folder (path), as trace_worker. */
static const char *
older_trace_worker(const cJSON *summary, const char *tl, const char *path)
{
    const cJSON *runs = pr_sget(summary, PR_K_RUNS), *j, *e;
    const char *best = NULL, *w;

    cJSON_ArrayForEach(j, pr_sget(summary, PR_K_JOBS))
    {
        if (pr_sget_job_is_memtl(summary, j) ||
            strcmp(pr_sget_str_or(j, PR_K_PATH, ""), path) != 0)
            continue;
        cJSON_ArrayForEach(e, pr_sget(j, PR_K_RUNS))
        {
            w = pr_sget_str_or(
                cJSON_GetArrayItem(runs, cJSON_IsNumber(e) ? e->valueint : -1),
                PR_K_WORKER, "");
            if (named_after(tl, w, best))
                best = w;
        }
    }
    return best;
}

/* One entry of an older summary's memory timeline job `old`: run `idx`
 * alone, named by its worker (its file's name) when it has one. */
static cJSON *
older_entry(const cJSON *summary, const cJSON *old, int idx)
{
    const cJSON *run = cJSON_GetArrayItem(pr_sget(summary, PR_K_RUNS), idx);
    const char *w = pr_sget_str_or(run, PR_K_WORKER, "");
    const char *path = pr_sget_str_or(old, PR_K_PATH, "");
    struct pr_row_job_entry row;
    cJSON *work = cJSON_CreateObject(), *e = NULL;
    int ok = work != NULL;

    memset(&row, 0, sizeof(row));
    row.name = w[0] ? w : pr_sget_str_or(old, PR_K_NAME, "?");
    row.kind = "memory_timeline";
    row.trace_worker = w[0] ? older_trace_worker(summary, w, path) : NULL;
    row.path = path;
    row.world_size = NAN;
    pr_emit_num(pr_emit_arr(work, PR_K_RUNS, &ok), NULL, (double)idx, &ok);
    (void)pr_emit_arr(work, PR_K_RANKS, &ok);
    if (ok && cJSON_AddNullToObject(work, PR_K_DISTRIBUTED) != NULL &&
        cJSON_AddNullToObject(work, PR_K_JOB) != NULL)
        e = pr_rows_row_from(PR_RO_JOBS, &row, work);
    cJSON_Delete(work);
    return e;
}

enum pr_status
pr_jobs_older_memtl(cJSON *summary, struct pr_error *err)
{
    cJSON *jobs = cJSON_GetObjectItemCaseSensitive(summary, PR_K_JOBS), *arr;
    const cJSON *j, *e;
    int older = 0;

    cJSON_ArrayForEach(j, jobs) older |=
        !cJSON_IsString(pr_sget(j, PR_K_KIND)) &&
        pr_sget_job_is_memtl(summary, j);
    if (!older)
        return PR_OK;
    if ((arr = cJSON_CreateArray()) == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    cJSON_ArrayForEach(j, jobs)
    {
        cJSON *c = NULL;
        int ok = 1;

        if (cJSON_IsString(pr_sget(j, PR_K_KIND)) ||
            !pr_sget_job_is_memtl(summary, j) ||
            pr_sget_len(pr_sget(j, PR_K_RUNS)) == 0) {
            ok = (c = cJSON_Duplicate(j, 1)) != NULL &&
                 cJSON_AddItemToArray(arr, c);
        } else {
            cJSON_ArrayForEach(e, pr_sget(j, PR_K_RUNS))
            {
                c = cJSON_IsNumber(e) ? older_entry(summary, j, e->valueint)
                                      : NULL;
                ok = ok && c != NULL && cJSON_AddItemToArray(arr, c);
            }
        }
        if (!ok) {
            cJSON_Delete(arr);
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
        }
    }
    if (!pr_sput(summary, PR_K_JOBS, arr)) {
        cJSON_Delete(arr);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    return PR_OK;
}

/* The folder the jobs are named from: the common part of their paths. */
static size_t
common_path(const cJSON *jobs, const char **first)
{
    const cJSON *j;
    size_t len = 0, k;

    *first = NULL;
    cJSON_ArrayForEach(j, jobs)
    {
        const char *p = pr_sget_str_or(j, PR_K_PATH, "");
        if (*first == NULL) {
            *first = p;
            len = strlen(p);
        }
        for (k = 0; k < len && p[k] == (*first)[k]; k++)
            ;
        len = k;
    }
    cJSON_ArrayForEach(j, jobs)
    {
        const char *p = pr_sget_str_or(j, PR_K_PATH, "");
        while (len > 0 && p[len] != '\0' && p[len] != '/')
            len--;
    }
    return len;
}

void
pr_jobs_describe(const cJSON *summary, const char *saved_from, char *buf,
                 size_t n)
{
    const cJSON *jobs = pr_sget(summary, PR_K_JOBS), *j;
    const char *first;
    size_t k = 0, len, common = common_path(jobs, &first);
    size_t n_tl = pr_sget_memtl_jobs(summary), n_jobs;
    char ext[96], what[96], tie[320];
    int tied = 0;

    buf[0] = '\0';
    if (pr_sget_len(jobs) < 2 || n < 64)
        return;
    /* a memory timeline is no job: named apart (review 18 #6) */
    n_jobs = pr_sget_len(jobs) - n_tl;
    len = n_jobs > 0 ? (size_t)snprintf(what, sizeof(what), "%zu job%s%s",
                                        n_jobs, n_jobs == 1 ? "" : "s",
                                        n_tl > 0 ? " and " : "")
                     : 0;
    if (n_tl > 0)
        snprintf(what + len, sizeof(what) - len, "%zu memory timeline%s", n_tl,
                 n_tl == 1 ? "" : "s");
    if (saved_from != NULL) /* where the user put them; where they came
                               from, as a note */
        snprintf(buf, n,
                 "read %s from %s (saved summaries of the traces in "
                 "%.*s):",
                 what, saved_from, common > 0 ? (int)common : 17,
                 common > 0 ? first : "several folders");
    else
        snprintf(buf, n, "read %s from %.*s:", what,
                 common > 0 ? (int)common : 10,
                 common > 0 ? first : "the inputs");
    cJSON_ArrayForEach(j, jobs)
    {
        len = strlen(buf);
        if (k++ == DESCRIBE_MAX) {
            snprintf(buf + len, n - len, " and %zu more",
                     pr_sget_len(jobs) - DESCRIBE_MAX);
            break;
        }
        if (pr_sget_job_is_memtl(summary, j)) {
            int t = pr_sget_memtl_tie(summary, j, tie, sizeof(tie));
            tied |= t;
            snprintf(buf + len, n - len,
                     "%s %s: a memory timeline (torch.profiler's "
                     "export_memory_timeline_raw)%s%s, shown on its own",
                     k > 1 ? "," : "",
                     pr_sget_str_or(j, PR_K_NAME, "?"), /* its file's */
                     t ? " named after " : "", tie);
            continue;
        }
        pr_sget_job_extent(j, ext, sizeof(ext));
        snprintf(buf + len, n - len, "%s %s (%s)", k > 1 ? "," : "",
                 pr_sget_str_or(j, PR_K_NAME, "?"), ext);
    }
    len = strlen(buf);
    if (n_jobs > 1)
        snprintf(buf + len, n - len,
                 "; each job's figures (distributed, stragglers, job "
                 "overview) are its own");
    if (n_tl > 0) {
        len = strlen(buf);
        snprintf(buf + len, n - len,
                 "; a memory timeline is no rank of a job: its file does "
                 "not say which run or device it belongs to%s",
                 tied ? " (one named after a trace is that trace's by its "
                        "name alone)"
                      : "");
    }
}
