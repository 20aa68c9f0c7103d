/* stages.c - the pipeline stages of an Ascend job (stages.h): groups from
 * the ranks' communication.json, stages by msprof-analyze's rule, each
 * stage's step phases, and the imbalance the faster stages wait for. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/keys.h"
#include "profreport/producer.h"
#include "profreport/rows.h"
#include "profreport/sget.h"
#include "profreport/stages.h"
#include "profreport/whatif.h"

#include "../internal.h"

#define MAX_GROUPS 1024
#define MAX_RANKS 8192

/* One rank: its index among the runs read, and its figures per step. */
struct rk {
    cJSON *run; /* borrowed: its recommendations get the balance's gain */
    double rank;
    double computing, alone, freet, bubble, step; /* means; NaN unknown */
    double p2p_wait, p2p_idle;                    /* per step; NaN none */
    double steps;                                 /* its hccl.ops' steps */
    const char *p2p_name;                         /* busiest p2p type */
    size_t parent;                                /* union-find */
};

/* A communication group: its id, which ranks hold it, and what it
 * carries.  A group of point-to-point operations only is a pipeline's
 * (msprof-analyze asks parallel_group_info for a "pp" name, which the
 * files do not always keep); one that also carries collectives (the
 * world's, used for a send too) chains no stages. */
struct grp {
    const char *id;
    int p2p, coll;
    unsigned char *has; /* owned: n_rk flags */
};

struct ctx {
    struct rk *rk;
    size_t n;
    struct grp *g;
    size_t n_g;
    int named; /* stages as MindSpore's cluster file names state them */
};

static size_t
find(struct rk *v, size_t i)
{
    while (v[i].parent != i) {
        v[i].parent = v[v[i].parent].parent;
        i = v[i].parent;
    }
    return i;
}

static void
join(struct rk *v, size_t a, size_t b)
{
    a = find(v, a);
    b = find(v, b);
    if (a != b)
        v[a > b ? a : b].parent = a < b ? a : b;
}

static struct grp *
group_of(struct ctx *c, const char *id, int p2p)
{
    size_t i;

    for (i = 0; i < c->n_g; i++)
        if (strcmp(c->g[i].id, id) == 0)
            break;
    if (i == c->n_g) {
        if (c->n_g == MAX_GROUPS)
            return NULL;
        c->g[i].id = id;
        c->g[i].has = calloc(c->n, 1);
        if (c->g[i].has == NULL)
            return NULL;
        c->n_g++;
    }
    c->g[i].p2p |= p2p;
    c->g[i].coll |= !p2p;
    return &c->g[i];
}

/* The mean per step of a phase. */
static double
phase(const cJSON *run, const char *key)
{
    return pr_sget_num(pr_sget(pr_sget(run, PR_K_STEP_PHASES), PR_K_MEAN), key);
}

/* Rank i's figures and groups; 0 on out-of-memory. */
static int
read_rank(struct ctx *c, size_t i)
{
    struct rk *r = &c->rk[i];
    const cJSON *op;
    double steps = (double)pr_sget_len(
        pr_sget(pr_sget(r->run, PR_K_STEP_PHASES), PR_K_STEPS));
    double best = -1;

    r->computing = phase(r->run, PR_K_COMPUTING_US);
    r->alone = phase(r->run, PR_K_COMMUNICATION_NOT_OVERLAPPED_US);
    r->freet = phase(r->run, PR_K_FREE_US);
    r->bubble = phase(r->run, PR_K_BUBBLE_US);
    r->step = pr_sget_num(pr_sget(r->run, PR_K_STEP_SUMMARY), PR_K_MEAN_US);
    r->p2p_wait = r->p2p_idle = NAN;
    r->parent = i;
    if (!(steps > 0))
        steps = (double)pr_sget_len(pr_sget(r->run, PR_K_STEPS));
    r->steps = steps;
    cJSON_ArrayForEach(op, pr_sget(pr_sget(r->run, PR_K_HCCL), PR_K_OPS))
    {
        const char *id = pr_sget_str(op, PR_K_GROUP);
        int p2p = pr_sget_is(pr_sget_str(op, PR_K_KIND), "p2p");
        double w = pr_sget_num(op, PR_K_WAIT_US);
        double idle = pr_sget_num(op, PR_K_IDLE_US);
        struct grp *g;

        if (id == NULL)
            continue;
        g = group_of(c, id, p2p);
        if (g == NULL)
            return 0;
        g->has[i] = 1;
        if (!p2p || isnan(w) || !(steps > 0))
            continue;
        r->p2p_wait = (isnan(r->p2p_wait) ? 0 : r->p2p_wait) + w / steps;
        if (idle > 0)
            r->p2p_idle = (isnan(r->p2p_idle) ? 0 : r->p2p_idle) + idle / steps;
        if (w > best) {
            best = w;
            r->p2p_name = pr_sget_str(op, PR_K_NAME);
        }
    }
    return 1;
}

/* A collective group that holds two ranks of one point-to-point chain
 * spans stages (the world's, a data-parallel group across the pipeline):
 * it does not join a stage.  p2p[] holds each rank's chain. */
static int
spans_chain(const struct ctx *c, const struct grp *g, const size_t *chain)
{
    size_t i, j;

    for (i = 0; i < c->n; i++)
        for (j = i + 1; g->has[i] && j < c->n; j++)
            if (g->has[j] && chain[i] == chain[j])
                return 1;
    return 0;
}

/* The stages into rk[].parent (a stage's root is its first rank);
 * returns the number of point-to-point groups. */
static size_t
form_stages(struct ctx *c, size_t *chain)
{
    size_t i, j, k, first, n_p2p = 0;

    for (k = 0; k < c->n_g; k++) {
        if (!c->g[k].p2p || c->g[k].coll)
            continue;
        n_p2p++;
        for (i = 0, first = c->n; i < c->n; i++)
            if (c->g[k].has[i]) {
                if (first == c->n)
                    first = i;
                join(c->rk, first, i);
            }
    }
    for (i = 0; i < c->n; i++)
        chain[i] = find(c->rk, i);
    for (i = 0; i < c->n; i++)
        c->rk[i].parent = i;
    for (k = 0; k < c->n_g; k++) {
        if (!c->g[k].coll || spans_chain(c, &c->g[k], chain))
            continue;
        for (i = 0, first = c->n; i < c->n; i++)
            if (c->g[k].has[i]) {
                if (first == c->n)
                    first = i;
                join(c->rk, first, i);
            }
    }
    for (j = 0; j < c->n; j++)
        (void)find(c->rk, j);
    return n_p2p;
}

/* The stages as MindSpore's cluster files state them, into rk[].parent
 * (a stage's root is its first rank): every rank's step_phases give the
 * same pipeline stage count S > 1 and its run the same world size W (the
 * file name's rank size), and rank r is in stage r / (W / S), as
 * MindInsight's cluster analysers number them.  Returns the number of
 * stages, 0 when the files do not state them. */
static size_t
named_stages(struct ctx *c)
{
    double s = NAN, w = NAN;
    size_t i, j, n = 0;

    for (i = 0; i < c->n; i++) {
        const cJSON *run = c->rk[i].run;
        double si =
            pr_sget_num(pr_sget(run, PR_K_STEP_PHASES), PR_K_PIPELINE_STAGES);
        double wi = pr_sget_num(run, PR_K_WORLD_SIZE);

        if (!(si > 1) || !(wi >= si) || (i > 0 && (si != s || wi != w)))
            return 0;
        s = si;
        w = wi;
    }
    if (c->n == 0 || fmod(w, s) != 0)
        return 0;
    for (i = 0; i < c->n; i++) {
        double stage = floor(c->rk[i].rank / (w / s));

        c->rk[i].parent = i;
        for (j = 0; j < i; j++)
            if (floor(c->rk[j].rank / (w / s)) == stage) {
                c->rk[i].parent = c->rk[j].parent;
                break;
            }
        n += c->rk[i].parent == i;
    }
    c->named = 1;
    return n;
}

/* One stage's figures: the largest of its ranks' (msprof-analyze's stage
 * rows), the mean wait of its ranks' point-to-point operations, and its
 * rank that computes longest. */
struct stage {
    size_t root, n;
    double computing, alone, freet, bubble, p2p_wait, p2p_idle;
    size_t slowest; /* index in rk */
    const char *p2p_name;
};

static double
fmax_known(double a, double b)
{
    return isnan(a) ? b : isnan(b) ? a : fmax(a, b);
}

static void
add_to_stage(struct stage *s, const struct rk *r, size_t i,
             const struct rk *all)
{
    s->computing = fmax_known(s->computing, r->computing);
    s->alone = fmax_known(s->alone, r->alone);
    s->freet = fmax_known(s->freet, r->freet);
    s->bubble = fmax_known(s->bubble, r->bubble);
    if (!isnan(r->p2p_wait)) {
        s->p2p_wait =
            (isnan(s->p2p_wait) ? 0 : s->p2p_wait * (double)s->n) + r->p2p_wait;
        s->p2p_wait /= (double)(s->n + 1);
        s->p2p_idle = (isnan(s->p2p_idle) ? 0 : s->p2p_idle * (double)s->n) +
                      (isnan(r->p2p_idle) ? 0 : r->p2p_idle);
        s->p2p_idle /= (double)(s->n + 1);
        if (s->p2p_name == NULL)
            s->p2p_name = r->p2p_name;
    }
    if (s->n == 0 ||
        (!isnan(r->computing) && (isnan(all[s->slowest].computing) ||
                                  r->computing > all[s->slowest].computing)))
        s->slowest = i;
    s->n++;
}

static size_t
collect_stages(const struct ctx *c, struct stage *st)
{
    size_t i, k, n = 0;

    for (i = 0; i < c->n; i++) {
        size_t root = c->rk[i].parent;

        for (k = 0; k < n && st[k].root != root; k++)
            ;
        if (k == n) {
            memset(&st[n], 0, sizeof(st[n]));
            st[n].root = root;
            st[n].computing = st[n].alone = st[n].freet = NAN;
            st[n].bubble = st[n].p2p_wait = st[n].p2p_idle = NAN;
            n++;
        }
        add_to_stage(&st[k], &c->rk[i], i, c->rk);
    }
    return n;
}

/* "0, 1" for the ranks of stage s. */
static void
rank_list(const struct ctx *c, const struct stage *s, char *buf, size_t cap)
{
    size_t i, len = 0;

    buf[0] = '\0';
    for (i = 0; i < c->n && len < cap; i++) {
        int k;

        if (c->rk[i].parent != s->root)
            continue;
        k = snprintf(buf + len, cap - len, "%s%.0f", len ? ", " : "",
                     c->rk[i].rank);
        if (k < 0)
            break;
        len += (size_t)k;
    }
}

/* One stage's row (rows.def's pr_row_stage): its ranks an array the row
 * holds a copy of. */
static int
emit_stage(const struct ctx *c, const struct stage *s, cJSON *arr)
{
    cJSON *ranks = cJSON_CreateArray();
    struct pr_row_stage r = {
        ranks,       s->computing,           s->alone,    s->freet,   s->bubble,
        s->p2p_wait, c->rk[s->slowest].rank, s->p2p_idle, s->p2p_name};
    size_t i;
    int ok = ranks != NULL;

    for (i = 0; i < c->n && ok; i++)
        if (c->rk[i].parent == s->root &&
            !cJSON_AddItemToArray(ranks, cJSON_CreateNumber(c->rk[i].rank)))
            ok = 0;
    ok = ok && pr_rows_write(arr, PR_RO_DISTRIBUTED_PIPELINE_STAGES, &r, 1);
    cJSON_Delete(ranks);
    return ok;
}

/* The stage that computes least where the slowest, st[hi], computes 10%
 * more than it (the stages are unbalanced); NULL otherwise. */
static const struct stage *
fastest(const struct stage *st, size_t n, size_t hi)
{
    const struct stage *s = &st[hi], *f = NULL;
    size_t i;

    for (i = 0; i < n; i++)
        if (!isnan(st[i].computing) &&
            (f == NULL || st[i].computing < f->computing))
            f = &st[i];
    if (f == NULL || f == s || !(s->computing > 0) ||
        (s->computing - f->computing) / s->computing < 0.10)
        return NULL;
    return f;
}

/* The imbalance: the stage that computes longest against the one that
 * computes least, and what the faster one waits. */
static const char *
finding(const struct ctx *c, const struct stage *st, size_t n, size_t hi,
        char *text, size_t cap)
{
    const struct stage *s = &st[hi], *f = fastest(st, n, hi);
    char slow[200], fast[200], wait[400] = "";

    if (f == NULL)
        return NULL;
    rank_list(c, s, slow, sizeof(slow));
    rank_list(c, f, fast, sizeof(fast));
    if (c->named && f->bubble > 0)
        snprintf(wait, sizeof(wait),
                 " The faster stage waits for it: its ranks spend %.1f ms a "
                 "step alone in Receive (receive_alone_time), idle while the "
                 "slower stage computes.",
                 f->bubble / 1000.0);
    else if (f->p2p_wait > 0 && f->p2p_idle > 0)
        /* the Idle Time too: the operation idle until its peer sends
           (issue #30 review: the CANN 8.3 job's fast stage waits 161.3 ms
           and idles 157.1 ms a step, which its ranks' notes count) */
        snprintf(wait, sizeof(wait),
                 " The faster stage waits for it: its ranks spend %.1f ms a "
                 "step in the Wait Time and %.1f ms in the Idle Time of "
                 "their point-to-point operations (%s, communication.json), "
                 "idle while the slower stage computes.",
                 f->p2p_wait / 1000.0, f->p2p_idle / 1000.0,
                 f->p2p_name ? f->p2p_name : "p2p");
    else if (f->p2p_wait > 0)
        snprintf(
            wait, sizeof(wait),
            " The faster stage waits for it: its ranks spend %.1f ms a "
            "step in the Wait Time of their point-to-point operations "
            "(%s, communication.json), idle while the slower stage computes.",
            f->p2p_wait / 1000.0, f->p2p_name ? f->p2p_name : "p2p");
    snprintf(text, cap,
             "Pipeline stages are unbalanced: the stage of rank%s %s computes "
             "%.1f ms a step against %.1f ms for the stage of rank%s %s "
             "(%s).%s Move layers from the slower "
             "stage to the faster one (the pipeline's layer split); if the "
             "slower stage is the first or last, count its embedding or loss "
             "as layers when splitting.",
             strchr(slow, ',') ? "s" : "", slow, s->computing / 1000.0,
             f->computing / 1000.0, strchr(fast, ',') ? "s" : "", fast,
             c->named ? "computation_time, MindSpore's ascend_cluster_analyse"
                      : "Computing, step_trace_time.csv",
             wait);
    return text;
}

/* ------------------------------------------- what balancing would save */

/* Balanced stages (issue #31's "a pipeline stage balanced"), a model and
 * not the step graph's replay (the export holds no compute tasks for the
 * stages, only their cluster table's figures).  1F1B: m microbatches
 * through p stages take about (m + p - 1) x the slowest stage's time per
 * microbatch, so a step's compute-bound part is (m + p - 1) / m x the
 * slowest stage's compute a step.  Balanced (layers moved until each
 * stage computes the stages' mean), it is (m + p - 1) / m x the mean.
 * The exports do not give m (MindSpore's micro_batch_num), so the gain is
 * claimed as m grows, its least: the slowest stage's compute above the
 * stages' mean, (m + p - 1) / m times less than the model's gain. */
struct balance {
    double gain_us;   /* the slowest stage's compute above the mean */
    double mean_us;   /* the stages' mean compute a step */
    size_t p;         /* stages with a computation time */
    char stages[400]; /* "14.8 ms (ranks 0, 1), 123.2 ms (ranks 2, 3)" */
};

static int
balance_of(const struct ctx *c, const struct stage *st, size_t n, size_t hi,
           struct balance *b)
{
    size_t i, len = 0;
    double sum = 0;

    memset(b, 0, sizeof(*b));
    for (i = 0; i < n; i++) {
        char ranks[200];

        if (isnan(st[i].computing))
            continue;
        sum += st[i].computing;
        b->p++;
        rank_list(c, &st[i], ranks, sizeof(ranks));
        len = pr_append(b->stages, sizeof(b->stages), len,
                        "%s%.1f ms (rank%s %s)", len ? ", " : "",
                        st[i].computing / 1000.0, strchr(ranks, ',') ? "s" : "",
                        ranks);
    }
    if (b->p < 2 || isnan(st[hi].computing))
        return 0;
    b->mean_us = sum / (double)b->p;
    b->gain_us = st[hi].computing - b->mean_us;
    return b->gain_us > 0;
}

/* The recommendation of run that balancing the stages answers: the
 * slower stage's pipeline_stage, or the faster one's communication
 * finding that names its pipeline bubble (producer.c); NULL none. */
static cJSON *
stage_rec(cJSON *run)
{
    cJSON *r;

    cJSON_ArrayForEach(
        r, cJSON_GetObjectItemCaseSensitive(run, PR_K_RECOMMENDATIONS))
    {
        const char *id = pr_sget_str(r, PR_K_ID);

        if (pr_sget_is(id, "pipeline_stage") ||
            (pr_sget_is(id, PR_K_COMMUNICATION) &&
             strstr(pr_sget_str_or(r, PR_K_TEXT, ""), "pipeline bubble")))
            return r;
    }
    return NULL;
}

/* Why balancing the stages has a bound and no estimate (issue #30
 * review): 1F1B runs m microbatches through p stages as a flow shop, a
 * step about the stages' compute a microbatch summed plus (m - 1) times
 * the slowest stage's, so balanced (each stage computing the stages'
 * mean) it saves (m - 1)/m x (slowest - mean) a step: nothing with one
 * microbatch, the slowest stage's compute above the mean as m grows.  No
 * export gives m.  The reason first: the verdict's cell shows its first
 * clause. */
static void
balance_note(char *note, size_t cap, double gain_us, double mean_us,
             const char *stages, const char *col, const char *m_name,
             double step)
{
    snprintf(note, cap,
             "no estimate: balancing the stages saves (m - 1)/m x %.1f ms a "
             "step with m microbatches a step, which these files do not "
             "state%s: at most %.1f ms of this rank's %.1f ms median step as m "
             "grows, nothing with one; 1F1B runs the microbatches through "
             "the stages as a flow shop, a step about the stages' compute a "
             "microbatch summed plus (m - 1) x the slowest stage's; "
             "balanced, each stage computes the stages' mean, %.1f ms a step "
             "(they compute %s: %s)",
             gain_us / 1000.0, m_name != NULL ? m_name : "", gain_us / 1000.0,
             step / 1000.0, mean_us / 1000.0, stages, col);
}

/* ------------------------------ each rank's finding, where groups tell */

/* The accumulation sentence's reason (whatif.c's accum_words) and, for a
 * rank whose wait the stages explain, the pipeline's words instead. */
#define ACCUM_NOT ", which accumulation does not fix"
#define PIPE_ACCUM                                                             \
    ": in a pipeline, more micro-batches a step make its fill and drain a "    \
    "smaller share of the step, not its wait for a slower stage"

/* The words that mark a cross-stage wait said (cross_wait_words). */
#define CROSS_WAIT_MARK " is held with rank"

/* A stage as distributed.pipeline holds it. */
struct pst {
    const cJSON *row;
    double computing, p2p_wait, p2p_idle;
    const char *p2p_op;
    char ranks[200]; /* "rank 3" or "ranks 2, 3" */
};

static void
pst_read(const cJSON *row, struct pst *p)
{
    const cJSON *e;
    size_t len = 0, n = 0;
    char list[160] = "";

    p->row = row;
    p->computing = pr_sget_num(row, PR_K_COMPUTING_US);
    p->p2p_wait = pr_sget_num(row, PR_K_P2P_WAIT_US);
    p->p2p_idle = pr_sget_num(row, PR_K_P2P_IDLE_US);
    p->p2p_op = pr_sget_str(row, PR_K_P2P_OP);
    cJSON_ArrayForEach(e, pr_sget(row, PR_K_RANKS))
    {
        len = pr_append(list, sizeof(list), len, "%s%.0f", n ? ", " : "",
                        cJSON_GetNumberValue(e));
        n++;
    }
    len = pr_append(p->ranks, sizeof(p->ranks), 0, "rank%s ", n > 1 ? "s" : "");
    (void)pr_append(p->ranks, sizeof(p->ranks), len, "%s", list);
}

static int
pst_has(const struct pst *p, double rank)
{
    const cJSON *e;

    cJSON_ArrayForEach(e, pr_sget(p->row, PR_K_RANKS))
    {
        if (cJSON_GetNumberValue(e) == rank)
            return 1;
    }
    return 0;
}

/* run's finding `id`, in its recommendations or (*obs set) observations. */
static cJSON *
finding_of(cJSON *run, const char *id, int *obs)
{
    cJSON *r;

    *obs = 0;
    cJSON_ArrayForEach(
        r, cJSON_GetObjectItemCaseSensitive(run, PR_K_RECOMMENDATIONS))
    {
        if (pr_sget_is(pr_sget_str(r, PR_K_ID), id))
            return r;
    }
    *obs = 1;
    cJSON_ArrayForEach(r,
                       cJSON_GetObjectItemCaseSensitive(run, PR_K_OBSERVATIONS))
    {
        if (pr_sget_is(pr_sget_str(r, PR_K_ID), id))
            return r;
    }
    return NULL;
}

/* The slower stage's rank: its own finding, as MindSpore's cluster table
 * gives one (recommend.c's rule_pipeline_stage), from the job's step
 * tables (issue #30 review: the CANN 8.3 job's ranks 2 and 3 compute
 * 401.1 ms a step against 231.3 ms, and their reports said nothing of
 * it).  Its bound is the balance's, put on next.  *made: the finding,
 * NULL where the run has one already. */
static int
slow_stage_rec(cJSON *run, const struct pst *slow, const struct pst *fast,
               cJSON **made)
{
    char text[1200], wait[400] = "", ev_name[300];
    double mine = phase(run, PR_K_COMPUTING_US);
    struct pr_row_recommendation row;
    cJSON *ev, *recs;
    int obs, ok;

    if (finding_of(run, "pipeline_stage", &obs) != NULL)
        return 1;
    if (fast->p2p_wait > 0)
        snprintf(wait, sizeof(wait),
                 ": the faster stage's ranks spend %.1f ms a step in the Wait "
                 "Time and %.1f ms in the Idle Time of their point-to-point "
                 "operations (%s, communication.json)",
                 fast->p2p_wait / 1000.0,
                 (fast->p2p_idle > 0 ? fast->p2p_idle : 0) / 1000.0,
                 fast->p2p_op ? fast->p2p_op : "p2p");
    snprintf(text, sizeof(text),
             "This rank's pipeline stage (%s) computes %.1f ms a step against "
             "%.1f ms for the stage of %s (Computing, step_trace_time.csv, "
             "the largest of each stage's ranks; this rank %.1f ms): it is "
             "the slower stage, which the others wait for%s. Move layers "
             "from this stage to the faster one (the pipeline's layer split) "
             "until the stages compute about as long; if it is the first or "
             "last stage, count its embedding or loss as layers.",
             slow->ranks, slow->computing / 1000.0, fast->computing / 1000.0,
             fast->ranks, mine / 1000.0, wait);
    recs = pr_rec_array(run);
    ev = cJSON_CreateArray();
    /* the stages' figures the bound is made of (issue #30 review: this
       rank's 400.4 ms beside 84.9 ms made of its stage's 401.1 ms) */
    snprintf(ev_name, sizeof(ev_name),
             "Computing of this stage, %s (step_trace_time.csv, its largest)",
             slow->ranks);
    ok = recs != NULL && ev != NULL &&
         pr_emit_evidence(ev, ev_name, slow->computing, NAN);
    snprintf(ev_name, sizeof(ev_name),
             "Computing of the stage of %s (step_trace_time.csv, its largest)",
             fast->ranks);
    ok = ok && pr_emit_evidence(ev, ev_name, fast->computing, NAN);
    if (ok) {
        pr_rec_init(&row, "pipeline_stage", "warning", text);
        row.evidence = ev; /* the row holds its copy */
        pr_rec_keep(&row, PR_SR_RUNS_RECOMMENDATIONS_PR_K_EVIDENCE);
        ok = (*made = pr_emit_rec_row(recs, &row)) != NULL;
    }
    cJSON_Delete(ev);
    return ok;
}

/* A bubble's evidence, the same on every rank whatever its finding held
 * (issue #30 review: pp4's rank 0 had none, the CANN 8.3 job's ranks two
 * and three items): its point-to-point operations' Wait and, where it is
 * a tenth of the two or more, Idle, a step (communication.json).  NULL
 * out of memory. */
static cJSON *
p2p_evidence(const cJSON *run, const double p[4], const char *name)
{
    cJSON *ev = cJSON_CreateArray();
    const cJSON *op;
    char n[300], who[160];
    double calls = 0, steps;
    int others = 0, ok = ev != NULL;

    /* its point-to-point operations, summed: how many calls, and the
       name where they are all one (hccl.ops rows: a type in a group) */
    cJSON_ArrayForEach(op, pr_sget(pr_sget(run, PR_K_HCCL), PR_K_OPS))
    {
        if (!pr_sget_is(pr_sget_str(op, PR_K_KIND), "p2p"))
            continue;
        if (pr_sget_num(op, PR_K_CALLS) > 0)
            calls += pr_sget_num(op, PR_K_CALLS);
        others |= !pr_sget_is(pr_sget_str(op, PR_K_NAME), name);
    }
    steps = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_COUNT);
    calls /= steps > 1 ? steps : 1;
    snprintf(who, sizeof(who), "%s, %.*f call%s a step (communication.json)",
             others ? "point-to-point" : name, calls == floor(calls) ? 0 : 1,
             calls, calls == 1 ? "" : "s");
    snprintf(n, sizeof(n), "%s Wait%s", others ? "Point-to-point" : name,
             strchr(who, ','));
    ok = ok && pr_emit_evidence(ev, n, p[0], NAN);
    snprintf(n, sizeof(n), "%s Idle%s", others ? "Point-to-point" : name,
             strchr(who, ','));
    if (ok && p[1] >= 0.1 * (p[0] + p[1]))
        ok = pr_emit_evidence(ev, n, p[1], NAN);
    if (!ok) {
        cJSON_Delete(ev);
        return NULL;
    }
    return ev;
}

/* A faster stage's rank whose communication is mostly point-to-point
 * waiting (pr_producer_p2p_waits): its communication finding names the
 * stage it waits for and reads as a pipeline bubble, the reading
 * MindSpore's cluster table gives (producer.c), so that the balance's
 * gain goes on it; an observation is a recommendation again for that
 * (its bound, the collectives' overlap alone, no longer its figure).  The
 * verdict's words for the peer name it too.  *made: the finding, NULL
 * where none is (no such wait, or made already). */
static int
bubble_rec(cJSON *run, const struct pst *slow, const struct pst *mine,
           cJSON **made)
{
    cJSON *r, *recs, *v, *ev;
    char add[700], *text, *nv;
    const char *name, *vt, *at, *t;
    double p[4];
    int obs, ok = 1;
    size_t len;

    if (!pr_producer_p2p_waits(run, p, &name) ||
        (r = finding_of(run, PR_K_COMMUNICATION, &obs)) == NULL ||
        strstr(pr_sget_str_or(r, PR_K_TEXT, ""), "pipeline bubble") != NULL)
        return 1;
    snprintf(add, sizeof(add),
             " The ranks it waits for are the slower pipeline stage's: the "
             "stage of %s computes %.1f ms a step against %.1f ms for this "
             "rank's stage (%s; Computing, step_trace_time.csv, the largest "
             "of each stage's ranks), so its point-to-point wait is a "
             "pipeline bubble: balance the stages (the Distributed section's "
             "pipeline view), not the links.",
             slow->ranks, slow->computing / 1000.0, mine->computing / 1000.0,
             mine->ranks);
    t = pr_sget_str_or(r, PR_K_TEXT, "");
    len = strlen(t) + strlen(add) + sizeof(PIPE_ACCUM);
    text = malloc(len);
    if (text == NULL)
        return 0;
    /* the accumulation sentence's hedge, which the stage now names (issue
       #30 review: rank 0 said "a slower stage is the first thing to rule
       out" two sentences before naming it), and its "accumulation does
       not fix", untrue of a pipeline's fill and drain, which more
       micro-batches a step make a smaller share (the second review: rank
       0 said it beside rank 2's drain) */
    at = strstr(t, PR_P2P_STAGE_HEDGE ACCUM_NOT);
    if (at != NULL)
        snprintf(text, len, "%.*s%s%s%s", (int)(at - t), t, PIPE_ACCUM,
                 at + strlen(PR_P2P_STAGE_HEDGE ACCUM_NOT), add);
    else
        snprintf(text, len, "%s%s", t, add);
    ev = p2p_evidence(run, p, name != NULL ? name : "p2p");
    if (ev == NULL) {
        free(text);
        return 0;
    }
    if (obs) {
        struct pr_row_recommendation row;

        pr_rec_init(&row, PR_K_COMMUNICATION,
                    pr_sget_str_or(r, PR_K_SEVERITY, "warning"), text);
        row.evidence = ev;
        pr_rec_keep(&row, PR_SR_RUNS_RECOMMENDATIONS_PR_K_EVIDENCE);
        recs = pr_rec_array(run);
        ok = recs != NULL && (*made = pr_emit_rec_row(recs, &row)) != NULL;
        if (ok)
            cJSON_Delete(cJSON_DetachItemViaPointer(
                cJSON_GetObjectItemCaseSensitive(run, PR_K_OBSERVATIONS), r));
        cJSON_Delete(ev);
    } else {
        ok = pr_sput_str(r, PR_K_TEXT, text);
        if (ok && pr_sput(r, PR_K_EVIDENCE, ev))
            ev = NULL;
        else
            ok = 0;
        cJSON_Delete(ev);
        *made = r;
    }
    free(text);
    /* the verdict's hedge, where its text holds it */
    v = cJSON_GetObjectItemCaseSensitive(run, PR_K_VERDICT);
    vt = pr_sget_str(v, PR_K_TEXT);
    at = vt != NULL ? strstr(vt, PR_PEER_STAGE_HEDGE) : NULL;
    if (!ok || vt == NULL || strstr(vt, "slower pipeline stage") != NULL)
        return ok;
    if (at != NULL)
        snprintf(add, sizeof(add),
                 "(the slower pipeline stage, %s: Computing %.1f ms a step "
                 "against %.1f ms for this stage, the largest of each "
                 "stage's ranks)",
                 slow->ranks, slow->computing / 1000.0,
                 mine->computing / 1000.0);
    else /* a verdict of its own words: the wait said after them (issue
            #30 review: pp4's rank 0 "Bound by device compute" beside a
            bubble finding) */
        snprintf(add, sizeof(add),
                 " Its point-to-point operations wait %.1f ms a step (Wait "
                 "and Idle, communication.json) for the slower pipeline "
                 "stage, %s (Computing %.1f ms a step against %.1f ms for "
                 "this stage, the largest of each stage's ranks): a "
                 "pipeline bubble.",
                 (p[0] + p[1]) / 1000.0, slow->ranks, slow->computing / 1000.0,
                 mine->computing / 1000.0);
    len = strlen(vt) + strlen(add) + 1;
    nv = malloc(len);
    if (nv == NULL)
        return 0;
    if (at != NULL)
        snprintf(nv, len, "%.*s%s%s", (int)(at - vt), vt, add,
                 at + strlen(PR_PEER_STAGE_HEDGE));
    else
        snprintf(nv, len, "%s%s", vt, add);
    ok = pr_sput_str(v, PR_K_TEXT, nv);
    free(nv);
    return ok;
}

/* The collectives' overlap bound of finding r (whatif.c's comm_bound: with
 * no work but their consumers waiting for a collective) less the wait w
 * the rank spends in one for a peer of another stage, which no overlap
 * on this rank shortens: the collective ends when the peer arrives
 * (issue #30 review: rank 2's "<= 96.4 ms" held 86.4 ms of waiting for
 * rank 0).  A bound of another model (the stages' balance) is left.  0:
 * out of memory. */
static int
overlap_less_wait(cJSON *r, const cJSON *w, const char *what)
{
    const char *gn = pr_sget_str(r, PR_K_GAIN_NOTE);
    double b = pr_sget_num(r, PR_K_BOUND_US),
           wait = pr_sget_num(w, PR_K_WAIT_US);
    const char *cut;
    size_t cap;
    char *note;
    int ok, head;

    if (gn == NULL || strstr(gn, "collectives' consumers") == NULL ||
        !(b > 0) || !(wait > 0) || strstr(gn, "another pipeline stage") != NULL)
        return 1;
    cap = strlen(gn) + 600;
    note = malloc(cap);
    if (note == NULL)
        return 0;
    /* said in its first clause, the one a terminal shows */
    cut = strchr(gn, ';');
    head = cut != NULL ? (int)(cut - gn) : (int)strlen(gn);
    if (b > wait)
        snprintf(note, cap,
                 "%.*s, less the %.1f ms a step this rank waits in %s for "
                 "rank %.0f of another pipeline stage, which no overlap on "
                 "this rank shortens (the collective ends when rank %.0f "
                 "arrives): %.1f ms%s",
                 head, gn, wait / 1000.0, what, pr_sget_num(w, PR_K_PEER_RANK),
                 pr_sget_num(w, PR_K_PEER_RANK), (b - wait) / 1000.0,
                 gn + head);
    else
        snprintf(note, cap,
                 "%.*s, %.1f ms of which this rank waits in %s for rank %.0f "
                 "of another pipeline stage, which no overlap on this rank "
                 "shortens (the collective ends when rank %.0f arrives)%s",
                 head, gn, wait / 1000.0, what, pr_sget_num(w, PR_K_PEER_RANK),
                 pr_sget_num(w, PR_K_PEER_RANK), gn + head);
    if (pr_sget(r, PR_K_TITLE) != NULL) {
        /* an observation's row (recommend.c's observe): its two cells in
           place, the recommendations' writer knowing no title */
        cJSON *num = cJSON_CreateNumber(b > wait ? b - wait : b);

        ok = pr_sput_str(r, PR_K_GAIN_NOTE, note) && num != NULL &&
             pr_sput(r, PR_K_BOUND_US, num);
        if (!ok && num != NULL && pr_sget(r, PR_K_BOUND_US) != num)
            cJSON_Delete(num);
    } else {
        ok = pr_whatif_model_bound(r, note, b > wait ? b - wait : b);
    }
    free(note);
    return ok;
}

/* A rank's wait in a collective held across stages (distributed.pipeline
 * .cross_stage_waits), said in its communication finding, with the peer's
 * Elapse as evidence, and what it most likely is by the two stages'
 * Computing: a wait for the stage that computes longer, or, where the
 * peer's stage computes less, the pipeline's drain (issue #30 review: the
 * CANN 8.3 job's ranks 2 and 3, the slower stage, wait 86.4 ms a step in
 * an all-reduce with ranks 0 and 1).  *changed set where it wrote; 0 out
 * of memory. */
static int
cross_wait_words(cJSON *run, const cJSON *pipeline, const struct pst *st,
                 size_t n, const struct pst *mine, int *changed)
{
    const cJSON *w;
    const struct pst *other = NULL;
    double rank = pr_sget_num(run, PR_K_RANK), calls, peer;
    char add[1100], ev_name[300], what[200], *text;
    const char *t, *tag;
    cJSON *r, *ev;
    size_t len, i;
    int obs, ok;

    cJSON_ArrayForEach(w, pr_sget(pipeline, PR_K_CROSS_STAGE_WAITS))
    {
        if (pr_sget_num(w, PR_K_RANK) == rank)
            break;
    }
    r = w != NULL ? finding_of(run, PR_K_COMMUNICATION, &obs) : NULL;
    t = pr_sget_str_or(r, PR_K_TEXT, "");
    if (r == NULL || strstr(t, CROSS_WAIT_MARK) != NULL)
        return 1;
    peer = pr_sget_num(w, PR_K_PEER_RANK);
    for (i = 0; i < n; i++)
        if (pst_has(&st[i], peer))
            other = &st[i];
    calls = pr_sget_num(w, PR_K_CALLS);
    tag = pr_sget_str(w, PR_K_GROUP_TAG);
    snprintf(what, sizeof(what), "%s (%s%s%s%.*f call%s a step)",
             pr_sget_str_or(w, PR_K_NAME, "?"), tag ? "group " : "",
             tag ? tag : "", tag ? ", " : "", calls == floor(calls) ? 0 : 1,
             calls, calls == 1 ? "" : "s");
    len = pr_append(
        add, sizeof(add), 0,
        " Its %s" CROSS_WAIT_MARK " %.0f of another pipeline stage (%s): "
        "%.1f ms a step here against %.1f ms there (Elapse, "
        "communication.json). A collective ends about together on every "
        "rank that holds it, so this rank arrives about %.1f ms sooner and "
        "waits there for rank %.0f",
        what, peer, other != NULL ? other->ranks : "?",
        pr_sget_num(w, PR_K_ELAPSE_US) / 1000.0,
        pr_sget_num(w, PR_K_PEER_ELAPSE_US) / 1000.0,
        pr_sget_num(w, PR_K_WAIT_US) / 1000.0, peer);
    if (other == NULL || mine == NULL || isnan(other->computing) ||
        isnan(mine->computing))
        len = pr_append(add, sizeof(add), len, ".");
    else if (other->computing > mine->computing)
        len = pr_append(add, sizeof(add), len,
                        "; that stage computes %.1f ms a step against %.1f ms "
                        "for this one (Computing, the largest of each "
                        "stage's ranks): the wait is for its longer work.",
                        other->computing / 1000.0, mine->computing / 1000.0);
    else
        len = pr_append(
            add, sizeof(add), len,
            "; that stage computes less (%.1f against %.1f ms a step, "
            "Computing, the largest of each stage's ranks), so the wait is "
            "not for longer work: most likely the pipeline's drain (the "
            "first stage runs the last micro-batch's backward, and a "
            "collective held across the stages after it, such as the "
            "all-reduce of tied embeddings or of the gradient norm, waits "
            "for it), which more micro-batches a step make a smaller share "
            "of the step; not the links.",
            other->computing / 1000.0, mine->computing / 1000.0);
    (void)len;
    len = strlen(t) + strlen(add) + 1;
    text = malloc(len);
    if (text == NULL)
        return 0;
    snprintf(text, len, "%s%s", t, add);
    ok = pr_sput_str(r, PR_K_TEXT, text);
    free(text);
    ev = cJSON_GetObjectItemCaseSensitive(r, PR_K_EVIDENCE);
    if (ok && !cJSON_IsArray(ev))
        ok =
            (ev = cJSON_CreateArray()) != NULL && pr_sput(r, PR_K_EVIDENCE, ev);
    snprintf(ev_name, sizeof(ev_name),
             "%s Elapse on rank %.0f, the last to "
             "arrive (communication.json)",
             what, peer);
    ok = ok && pr_emit_evidence(ev, ev_name,
                                pr_sget_num(w, PR_K_PEER_ELAPSE_US), NAN);
    *changed = ok;
    return ok && overlap_less_wait(r, w, what);
}

enum pr_status
pr_stages_apply(cJSON *run, const cJSON *pipeline, struct pr_error *err)
{
    struct pst st[16], *slow = NULL, *fast = NULL, *mine = NULL;
    const cJSON *row;
    double rank = pr_sget_num(run, PR_K_RANK), sum = 0, gain, step, pct;
    size_t n = 0, p = 0, i;
    char note[1200], stages[600] = "";
    size_t len = 0;
    cJSON *made = NULL;
    int ok, changed = 0;

    /* a MindSpore cluster's ranks have theirs from its own table
       (pr_stages_gains); a run without a rank is in no stage; a job's
       lite run holds no finding (its whole run gets them, merge.h) */
    if (isnan(rank) || !cJSON_IsObject(pr_sget(run, PR_K_VERDICT)) ||
        pr_sget_is(pr_sget_str(pr_sget(run, PR_K_STEP_PHASES), PR_K_SOURCE),
                   "ascend_cluster_analyse"))
        return PR_OK;
    cJSON_ArrayForEach(row, pr_sget(pipeline, PR_K_STAGES))
    {
        if (n == sizeof(st) / sizeof(st[0]))
            return PR_OK; /* more stages than a finding words */
        pst_read(row, &st[n]);
        if (!isnan(st[n].computing)) {
            sum += st[n].computing;
            p++;
            if (fast == NULL || st[n].computing < fast->computing)
                fast = &st[n];
            len = pr_append(stages, sizeof(stages), len, "%s%.1f ms (%s)",
                            len ? ", " : "", st[n].computing / 1000.0,
                            st[n].ranks);
        }
        if (pst_has(&st[n], rank))
            mine = &st[n];
        n++;
    }
    i = (size_t)pr_sget_num(pipeline, PR_K_SLOWEST_STAGE);
    if (i < n)
        slow = &st[i];
    gain = slow != NULL ? slow->computing - sum / (double)p : NAN;
    step = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEDIAN_US);
    pct = 100.0 * gain / step;
    ok = 1;
    if (pr_sget_str(pipeline, PR_K_FINDING) != NULL && slow != NULL &&
        fast != NULL && mine != NULL && slow != fast && p >= 2 &&
        !isnan(slow->computing) && gain > 0 && step > 0 && pct >= 1.0)
        ok = mine == slow ? slow_stage_rec(run, slow, fast, &made)
                          : bubble_rec(run, slow, mine, &made);
    if (ok && made != NULL) {
        balance_note(note, sizeof(note), gain, sum / (double)p, stages,
                     "Computing", NULL, step);
        /* a bound, no gain: an observation again (the run's others are
           already) */
        ok = pr_whatif_model_bound(made, note, gain) &&
             pr_recommend_observe(run);
        changed = ok;
    }
    /* a wait in a collective across stages, balanced or not, after what
       the stages say of the rank */
    ok = ok && cross_wait_words(run, pipeline, st, n, mine, &changed);
    if (ok && changed)
        return pr_whatif_verdict_rows(run, err);
    return ok ? PR_OK
              : pr_error_set(err, PR_E_NOMEM, "out of memory (pipeline)");
}

/* Each rank's stage finding gets the balance's gain, against its median
 * step (the step its finding's text names), and its place among the
 * run's findings by that gain (whatif.c ranks them and makes the
 * verdict's rows from them). */
static void
put_gains(const struct ctx *c, const struct balance *b, int *ok)
{
    char note[1200];
    size_t i;

    for (i = 0; i < c->n && *ok; i++) {
        cJSON *run = c->rk[i].run, *r;
        struct pr_error e;
        double step =
            pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEDIAN_US);
        double pct = 100.0 * b->gain_us / step;

        if (!(step > 0) || !(pct >= 1.0) || (r = stage_rec(run)) == NULL)
            continue;
        balance_note(note, sizeof(note), b->gain_us, b->mean_us, b->stages,
                     c->named ? "computation_time" : "Computing",
                     " (MindSpore's micro_batch_num)", step);
        /* through the recommendation's row, written whole again; made an
           observation once the cluster's last rank is in (summary.c) */
        if (*ok && !pr_whatif_model_bound(r, note, b->gain_us))
            *ok = 0;
        /* the verdict reads the recommendation: ranked again, its rows
           made again (whatif.c), no cell of its own here */
        if (*ok && pr_whatif_verdict_rows(run, &e) != PR_OK)
            *ok = 0;
    }
}

/* run's hccl.ops row of type `name` in group `group`; NULL none. */
static const cJSON *
op_in(const cJSON *run, const char *name, const char *group)
{
    const cJSON *op;

    cJSON_ArrayForEach(op, pr_sget(pr_sget(run, PR_K_HCCL), PR_K_OPS))
    {
        if (pr_sget_is(pr_sget_str(op, PR_K_NAME), name) &&
            pr_sget_is(pr_sget_str(op, PR_K_GROUP), group))
            return op;
    }
    return NULL;
}

/* Each rank's longest wait in a collective held across stages, a row of
 * distributed.pipeline.cross_stage_waits (issue #30 review: the CANN 8.3
 * job's rank 2 spends 121.0 ms a step in an hcom_allReduce_ its group
 * holds with rank 0 of the other stage, which spends 34.6 ms in it, and
 * its report said only "peers that arrive late are the first thing to
 * rule out").  A collective ends about together on every rank that holds
 * it, so the difference of two ranks' Elapse is how much sooner one
 * arrives; the group's rank with the least Elapse arrives last, and a
 * wait is kept where that rank is in another stage and the difference is
 * 5% of the waiting rank's median step or more.  0: out of memory. */
static int
cross_waits(const struct ctx *c, cJSON *arr)
{
    size_t i, j;
    int ok = 1;

    for (i = 0; i < c->n && ok; i++) {
        const struct rk *r = &c->rk[i];
        const cJSON *op;
        double step =
            pr_sget_num(pr_sget(r->run, PR_K_STEP_SUMMARY), PR_K_MEDIAN_US);
        struct pr_row_cross_wait w = {0};

        if (!(r->steps > 0) || !(step > 0))
            continue;
        cJSON_ArrayForEach(op, pr_sget(pr_sget(r->run, PR_K_HCCL), PR_K_OPS))
        {
            const char *name = pr_sget_str(op, PR_K_NAME);
            const char *g = pr_sget_str(op, PR_K_GROUP);
            double mine = pr_sget_num(op, PR_K_ELAPSE_US) / r->steps;
            double least = NAN;
            size_t peer = c->n;

            if (name == NULL || g == NULL || !(mine > 0) ||
                pr_sget_is(pr_sget_str(op, PR_K_KIND), "p2p"))
                continue;
            for (j = 0; j < c->n; j++) {
                const cJSON *o;
                double e;

                if (j == i || !(c->rk[j].steps > 0) ||
                    (o = op_in(c->rk[j].run, name, g)) == NULL)
                    continue;
                e = pr_sget_num(o, PR_K_ELAPSE_US) / c->rk[j].steps;
                if (e >= 0 && (isnan(least) || e < least)) {
                    least = e;
                    peer = j;
                }
            }
            if (peer == c->n || c->rk[peer].parent == r->parent ||
                mine - least < 0.05 * step ||
                (w.name != NULL && mine - least <= w.wait_us))
                continue;
            w.rank = r->rank;
            w.name = name;
            w.group = g;
            w.group_tag = pr_sget_str(op, PR_K_GROUP_TAG);
            w.calls = pr_sget_num(op, PR_K_CALLS) / r->steps;
            w.elapse_us = mine;
            w.peer_rank = c->rk[peer].rank;
            w.peer_elapse_us = least;
            w.wait_us = mine - least;
        }
        if (w.name != NULL)
            ok = pr_rows_write(
                arr, PR_RO_DISTRIBUTED_PIPELINE_CROSS_STAGE_WAITS, &w, 1);
    }
    return ok;
}

static void
emit_pipeline(const struct ctx *c, cJSON *d, int *ok)
{
    struct balance b;
    struct stage *st = calloc(c->n, sizeof(*st));
    size_t n, i, hi = 0;
    struct pr_row_pipeline o = {0};
    char text[1200];
    cJSON *arr, *pl, *waits = NULL;
    struct pr_error e;

    if (st == NULL) {
        *ok = 0;
        return;
    }
    n = collect_stages(c, st);
    if (n < 2) {
        if (d != NULL)
            pr_emit_null(d, PR_K_PIPELINE, ok);
        free(st);
        return;
    }
    for (i = 1; i < n; i++)
        if (fmax_known(st[i].computing, -1) > fmax_known(st[hi].computing, -1))
            hi = i;
    if (d == NULL) { /* the gains alone (pr_stages_gains) */
        if (balance_of(c, st, n, hi, &b))
            put_gains(c, &b, ok);
        free(st);
        return;
    }
    o.method =
        c->named ? "stages as MindSpore's cluster files state them "
                   "(ascend_cluster_analyse_{mode}_{stages}_{ranks}_{rank}"
                   ".csv): rank r is in stage r / (ranks / stages), as "
                   "MindInsight numbers them; a stage's figures are the "
                   "largest of its ranks' (mean per step over steps 2..n, "
                   "as MindSpore averages them), each column on its own, so "
                   "a row may take its columns from different ranks; its "
                   "bubble the time alone "
                   "in Receive (receive_alone_time)"
                 : "stages as msprof-analyze's cluster analysis forms them: "
                   "ranks joined by point-to-point groups are in different "
                   "stages, ranks of a collective group holding at most one "
                   "rank of each point-to-point chain are in one; a stage's "
                   "figures are the largest of its ranks' (mean per step), "
                   "each column on its own as in msprof-analyze's stage rows, "
                   "so a row may take its columns from different ranks and "
                   "add up to more than a step; its p2p wait and idle the "
                   "means of its ranks'";
    arr = cJSON_CreateArray();
    *ok = *ok && arr != NULL;
    for (i = 0; i < n && *ok; i++)
        *ok = emit_stage(c, &st[i], arr);
    o.stages = arr;
    o.slowest_stage = (int64_t)hi;
    o.finding = finding(c, st, n, hi, text, sizeof(text));
    /* the stages a MindSpore cluster's files name come with no groups */
    if (c->named)
        pr_rows_omit(PR_RO_DISTRIBUTED_PIPELINE, &o,
                     PR_SR_DISTRIBUTED_PIPELINE_PR_K_CROSS_STAGE_WAITS);
    else if (*ok && (waits = cJSON_CreateArray()) != NULL)
        *ok = cross_waits(c, waits);
    else
        *ok = 0;
    o.cross_stage_waits = waits;
    pl = pr_emit_one(d, PR_K_PIPELINE, PR_RO_DISTRIBUTED_PIPELINE, &o, ok);
    cJSON_Delete(arr);
    cJSON_Delete(waits);
    if (c->named && balance_of(c, st, n, hi, &b))
        put_gains(c, &b, ok);
    /* stages the groups formed: each rank's finding from the view just
       written, as a run read again for a report gets it (pr_stages_apply) */
    for (i = 0; !c->named && pl != NULL && *ok && i < c->n; i++)
        *ok = pr_stages_apply(c->rk[i].run, pl, &e) == PR_OK;
    free(st);
}

enum pr_status
pr_stages_gains(cJSON *runs, struct pr_error *err)
{
    return pr_stages_build(runs, NULL, err);
}

enum pr_status
pr_stages_build(cJSON *runs, cJSON *d, struct pr_error *err)
{
    struct ctx c = {0};
    cJSON *run;
    size_t *chain = NULL, i;
    int ok = 1;

    c.rk = calloc(pr_sget_len(runs) + 1, sizeof(*c.rk));
    c.g = calloc(MAX_GROUPS, sizeof(*c.g));
    ok = c.rk != NULL && c.g != NULL;
    cJSON_ArrayForEach(run, runs)
    {
        if (!ok || c.n == MAX_RANKS || isnan(pr_sget_num(run, PR_K_RANK)))
            continue;
        c.rk[c.n].run = run;
        c.rk[c.n].rank = pr_sget_num(run, PR_K_RANK);
        c.n++;
    }
    for (i = 0; ok && i < c.n; i++)
        ok = read_rank(&c, i);
    chain = ok ? calloc(c.n + 1, sizeof(*chain)) : NULL;
    if (chain != NULL && (form_stages(&c, chain) > 0 || named_stages(&c) > 1))
        emit_pipeline(&c, d, &ok);
    else if (ok && chain != NULL && d != NULL)
        pr_emit_null(d, PR_K_PIPELINE, &ok);
    for (i = 0; i < c.n_g; i++)
        free(c.g[i].has);
    free(c.g);
    free(c.rk);
    free(chain);
    return ok && chain != NULL
               ? PR_OK
               : pr_error_set(err, PR_E_NOMEM, "out of memory (pipeline)");
}
