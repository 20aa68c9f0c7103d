/* sec_npu.c - the distributed section of an Ascend job in its producer's
 * words (issue #30): the per-rank split under the names MindStudio
 * Insight and step_trace_time.csv give it (Computing, Overlapped,
 * Communication(Not Overlapped), Free), the pipeline stages with the
 * imbalance finding (distributed.pipeline), and where each rank's HCCL
 * time went as communication.json splits it (Transit, Wait,
 * Synchronization, Idle).  What a GPU job shows there is sections.c's. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/chart.h"
#include "profreport/figures.h"
#include "profreport/keys.h"
#include "profreport/sget.h"

/* The overlap split under the producer's names: the four parts add up
 * to the step, as its Computing + Communication(Not Overlapped) + Free
 * do with Computing counted once. */
static const struct pr_category npu_overlap[PR_N_OVERLAP] = {
    {PR_K_COMPUTATION_US, "Computing only", 0x0072B2},
    {PR_K_OVERLAP_US, "Overlapped", 0x009E73},
    {PR_K_COMMUNICATION_US, "Communication(Not Overlapped)", 0xD55E00},
    {PR_K_OTHER_US, "Free", 0x999999},
};

const struct pr_category *const pr_sec_npu_overlap = npu_overlap;

static const struct pr_col worker_cols[] = {
    {"worker", PR_K_WORKER, "Worker", PR_FMT_NAME, 1.4, NULL, PR_COL_BOTH},
    {"rank", PR_K_RANK, "Rank", PR_FMT_COUNT, 0.5, NULL, PR_COL_BOTH},
    {"computing", PR_K_COMPUTING_US, "Computing", PR_FMT_US, 1,
     "device time in compute tasks, overlapped or not (MindStudio Insight's "
     "Computing)",
     PR_COL_BOTH},
    {"overlapped", PR_K_OVERLAP_US, "Overlapped", PR_FMT_US, 1,
     "compute and HCCL at once", PR_COL_BOTH},
    {"comm", PR_K_COMMUNICATION_US, "Communication(Not Overlapped)", PR_FMT_US,
     1.4, "HCCL time no compute task covers", PR_COL_BOTH},
    {"free", PR_K_OTHER_US, "Free", PR_FMT_US, 1,
     "neither computing nor communicating", PR_COL_BOTH},
    {"comm_overlap", PR_K_COMM_OVERLAP_PCT, "HCCL overlapped", PR_FMT_PCT, 0.9,
     "of the HCCL time, the part computing overlaps: Overlapped / (Overlapped "
     "+ Communication(Not Overlapped))",
     PR_COL_BOTH},
    {"from", PR_K_SPLIT_SOURCE, "From", PR_FMT_TEXT, 1.2,
     "the rank's own step table, or its device tasks", PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* The workers' rows with Computing = computation + overlap. */
static cJSON *
worker_rows(const cJSON *workers)
{
    cJSON *rows = cJSON_Duplicate(workers, 1), *r;

    cJSON_ArrayForEach(r, rows)
    {
        double c = pr_sget_num(r, PR_K_COMPUTATION_US),
               o = pr_sget_num(r, PR_K_OVERLAP_US);
        cJSON *v;

        /* MindSpore's cluster table: computation_time is Computing, its
           overlap not known (review 28a #2) */
        if (isnan(o) &&
            (pr_sget_is(pr_sget_str(r, PR_K_SPLIT_SOURCE),
                        "ascend_cluster_analyse") ||
             pr_sget_is(pr_sget_str(r, PR_K_SPLIT_SOURCE), "step_trace_raw")))
            o = 0;
        v = isnan(c) || isnan(o) ? cJSON_CreateNull()
                                 : cJSON_CreateNumber(c + o);
        if (v == NULL || !cJSON_AddItemToObject(r, PR_K_COMPUTING_US, v)) {
            cJSON_Delete(v);
            cJSON_Delete(rows);
            return NULL;
        }
    }
    return rows;
}

void
pr_sec_npu_workers(struct pr_figs *f, const cJSON *workers, int capture,
                   int mixed)
{
    struct pr_fig_table t = {.cols = worker_cols, .what = "ranks"};
    cJSON *rows = worker_rows(workers);
    const cJSON *r;
    size_t n = 0, tab = 0, cluster = 0, trace = 0, db = 0;
    char text[600];
    /* the window: per step, or a rank's capture where it has no steps
       (issue #29: kernel_details_910B_v1.csv's 517 ms capture) */
    const char *per = capture ? "Over each rank's capture (no rank has steps)"
                      : mixed ? "Per step, averaged over steps (a rank "
                                "without steps: over its capture)"
                              : "Per step, averaged over steps";
    const char *is = capture ? "the capture"
                     : mixed ? "the step (or the capture)"
                             : "the step";

    cJSON_ArrayForEach(r, workers)
    {
        n++;
        tab += !pr_sget_is(pr_sget_str(r, PR_K_SPLIT_SOURCE), PR_K_TASKS);
        cluster += pr_sget_is(pr_sget_str(r, PR_K_SPLIT_SOURCE),
                              "ascend_cluster_analyse");
        trace +=
            pr_sget_is(pr_sget_str(r, PR_K_SPLIT_SOURCE), "step_trace_raw");
        /* a database export's step table (issue #30 review: tnpu
           db_level1 has no step_trace_time.csv) */
        db += pr_sget_is(pr_sget_str(r, PR_K_SPLIT_SOURCE),
                         "analysis.db StepTraceTime");
    }
    if (rows == NULL)
        pr_figs_nomem(f);
    pr_figs_heading(f, "Ranks");
    if (cluster > 0 && cluster == n) {
        /* MindSpore's cluster table, not the tasks (review 28a #2:
           ms_cluster4 said "from the device tasks" of an export with no
           compute task, and averaged the 2 s warm-up step in) */
        snprintf(text, sizeof(text),
                 "Per step, from MindSpore's cluster table "
                 "(ascend_cluster_analyse_*.csv: Computing is its "
                 "computation_time, Communication(Not Overlapped) its "
                 "communication_alone_time), averaged over the steps its "
                 "own mean covers (the first, a pipeline's warm-up, left "
                 "out where the table leaves it out). The table has no "
                 "overlap or free column and the export no compute task, "
                 "so Overlapped and Free are not known.");
        pr_figs_note(f, text);
        pr_figs_table_own(f, &t, rows, NULL);
        return;
    }
    if (trace > 0 && trace == n) {
        /* MindSpore's step trace where the export holds no compute task
           (review30a #1: ms_ut read "Computing 0, Free 86.5%" from its
           communication tasks alone) */
        snprintf(text, sizeof(text),
                 "Per step, from MindSpore's step trace "
                 "(step_trace_raw_*_detail_time.csv), the export holding "
                 "no compute task: Computing is its fp_and_bp, "
                 "Communication(Not Overlapped) the collectives' time in "
                 "its tail, Free the iteration_interval and the rest of "
                 "the tail (not known where the export holds no task); "
                 "averaged over the steps. Without compute tasks what "
                 "overlaps HCCL is not known: Overlapped stays empty.");
        pr_figs_note(f, text);
        pr_figs_table_own(f, &t, rows, NULL);
        return;
    }
    /* the heading claims the producer's names: where a rank's numbers
       are its tasks', not its step table's, it says so (third review,
       finding 1) */
    snprintf(text, sizeof(text),
             "%s, %s: Computing includes the time it "
             "overlaps HCCL; Computing + Communication(Not Overlapped) + "
             "Free is %s.",
             per,
             trace > 0 ? "from each rank's own step table where it has one "
                         "(column From: step_trace_time.csv, MindSpore's "
                         "cluster table, or its step trace where the export "
                         "holds no compute task), else from its device "
                         "tasks, in the names of step_trace_time.csv and "
                         "MindStudio Insight"
             : tab == n && db == n
                 ? "from each rank's step table in its database (analysis.db "
                   "StepTraceTime, step_trace_time.csv's columns), in their "
                   "names and MindStudio Insight's"
             : tab == n ? "from each rank's step_trace_time.csv, in its names "
                          "and MindStudio Insight's"
             : tab == 0 ? "from the device tasks (no rank here has "
                          "step_trace_time.csv), split as "
                          "step_trace_time.csv and MindStudio Insight name it"
                        : "from each rank's step_trace_time.csv where it has "
                          "one, else from its device tasks (column From), in "
                          "the names of step_trace_time.csv and MindStudio "
                          "Insight",
             is);
    pr_figs_note(f, text);
    pr_figs_table_own(f, &t, rows, NULL);
}

/* ---- pipeline stages */

static const struct pr_col stage_cols[] = {
    {"ranks", "ranks_text", "Stage (ranks)", PR_FMT_TEXT, 1.2, NULL,
     PR_COL_BOTH},
    {"computing", PR_K_COMPUTING_US, "Computing", PR_FMT_US, 1,
     "the largest of its ranks', per step", PR_COL_BOTH},
    /* each column its own rank's largest: a row may mix ranks (issue #30
       review: 231 ms of rank 0 beside 442 ms of rank 1), as the stage rows
       of msprof-analyze's cluster_step_trace_time.csv do */
    {"comm", PR_K_COMMUNICATION_NOT_OVERLAPPED_US,
     "Communication(Not Overlapped)", PR_FMT_US, 1.4,
     "the largest of its ranks', per step (not always the Computing's rank)",
     PR_COL_BOTH},
    {"free", PR_K_FREE_US, "Free", PR_FMT_US, 0.8,
     "the largest of its ranks', per step", PR_COL_BOTH},
    {"bubble", PR_K_BUBBLE_US, "Bubble", PR_FMT_US, 0.8,
     "time in receives (hcom_receive), as step_trace_time.csv counts it",
     PR_COL_BOTH},
    {"p2p_wait", PR_K_P2P_WAIT_US, "P2P wait", PR_FMT_US, 0.9,
     "Wait Time of its ranks' point-to-point operations "
     "(communication.json), per step, the mean of its ranks'",
     PR_COL_BOTH},
    {"p2p_idle", PR_K_P2P_IDLE_US, "P2P idle", PR_FMT_US, 0.9,
     "Idle Time of its ranks' point-to-point operations "
     "(communication.json), per step, the mean of its ranks'",
     PR_COL_BOTH},
    {"slowest", PR_K_SLOWEST_RANK, "Slowest rank", PR_FMT_COUNT, 0.8,
     "its rank that computes longest", PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

static const struct pr_col cross_cols[] = {
    {"rank", PR_K_RANK, "Rank", PR_FMT_COUNT, 0.5, "the rank that waits",
     PR_COL_BOTH},
    {"name", PR_K_NAME, "Operation", PR_FMT_NAME, 1.4, NULL, PR_COL_BOTH},
    {"tag", PR_K_GROUP_TAG, "Tag", PR_FMT_TEXT, 0.4,
     "the digits HCCL puts into the operation's name: which group",
     PR_COL_BOTH},
    {"calls", PR_K_CALLS, "Calls a step", PR_FMT_COUNT, 0.7, NULL, PR_COL_BOTH},
    {"elapse", PR_K_ELAPSE_US, "Elapse", PR_FMT_US, 0.8,
     "this rank's Elapse Time a step (communication.json)", PR_COL_BOTH},
    {"peer", PR_K_PEER_RANK, "Last to arrive", PR_FMT_COUNT, 0.8,
     "the group's rank with the least Elapse, in another stage", PR_COL_BOTH},
    {"peer_elapse", PR_K_PEER_ELAPSE_US, "Its elapse", PR_FMT_US, 0.8, NULL,
     PR_COL_BOTH},
    {"wait", PR_K_WAIT_US, "Arrives sooner by", PR_FMT_US, 0.9,
     "Elapse - its elapse: a collective ends about together on every rank "
     "that holds it",
     PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* Each rank's longest wait in a collective held across stages
 * (distributed.pipeline.cross_stage_waits), where any is. */
static void
cross_waits(struct pr_figs *f, const cJSON *p)
{
    struct pr_fig_table t = {.cols = cross_cols, .what = "waits"};
    const cJSON *w = pr_sget(p, PR_K_CROSS_STAGE_WAITS);
    cJSON *rows;

    if (pr_sget_len(w) == 0)
        return;
    rows = cJSON_Duplicate(w, 1);
    if (rows == NULL) {
        pr_figs_nomem(f);
        return;
    }
    pr_figs_note(
        f, "Waits in collectives held across stages: each rank's longest, "
           "where the group's last rank to arrive is in another stage and "
           "the difference of their Elapse Time (communication.json) is 5% "
           "of the rank's step or more. A collective ends about together on "
           "every rank that holds it, so the difference is how much sooner "
           "the rank arrives; the rank's communication finding says what it "
           "most likely is.");
    pr_figs_table_own(f, &t, rows, NULL);
}

/* The stages' rows, each with its ranks as text and the slowest stage
 * marked. */
static cJSON *
stage_rows(const cJSON *p)
{
    cJSON *rows = cJSON_Duplicate(pr_sget(p, PR_K_STAGES), 1), *r;
    double slow = pr_sget_num(p, PR_K_SLOWEST_STAGE);
    int k = 0;

    cJSON_ArrayForEach(r, rows)
    {
        char text[200];
        size_t len = 0;
        const cJSON *x;

        text[0] = '\0';
        cJSON_ArrayForEach(x, pr_sget(r, PR_K_RANKS))
        {
            int n = snprintf(text + len, sizeof(text) - len, "%s%.0f",
                             len ? ", " : "", x->valuedouble);
            if (n < 0 || (size_t)n >= sizeof(text) - len)
                break;
            len += (size_t)n;
        }
        if (k++ == (int)slow && len + 10 < sizeof(text))
            snprintf(text + len, sizeof(text) - len, " (slowest)");
        if (!cJSON_AddStringToObject(r, "ranks_text", text)) {
            cJSON_Delete(rows);
            return NULL;
        }
    }
    return rows;
}

static void
pipeline(struct pr_figs *f, const cJSON *p)
{
    struct pr_fig_table t = {.cols = stage_cols, .what = "stages"};
    const char *finding = pr_sget_str(p, PR_K_FINDING);
    cJSON *rows, *items, *it;

    if (!cJSON_IsObject(p))
        return;
    rows = stage_rows(p);
    if (rows == NULL)
        pr_figs_nomem(f);
    pr_figs_heading(f, "Pipeline stages");
    {
        /* the method as a sentence, and the columns the PDF shows no
           hover note for (issue #30 review) */
        const char *m = pr_sget_str_or(p, PR_K_METHOD, "");
        char note[1400];

        if (m[0] != '\0') {
            /* MindSpore's cluster files have no communication.json; a
               batched send/receive (hcom_batchSendRecv_) is no
               hcom_receive (issue #30 review: pp4's Bubble 0 beside a
               P2P wait of 158 ms) */
            int ms = strstr(m, "MindSpore") != NULL;

            snprintf(note, sizeof(note),
                     "%c%s.%s%s Slowest rank: the stage's "
                     "rank that computes longest.",
                     m[0] >= 'a' && m[0] <= 'z' ? m[0] - 'a' + 'A' : m[0],
                     m + 1,
                     strstr(m, "bubble") != NULL
                         ? ""
                         : " Bubble: time in receives (hcom_receive), as "
                           "step_trace_time.csv counts it; batched "
                           "point-to-point operations (hcom_batchSendRecv_, "
                           "from batch_isend_irecv) are not in it, their "
                           "wait is in P2P wait;",
                     ms ? " P2P wait and idle: not in MindSpore's files;"
                        : " P2P wait and idle: the Wait and Idle Time of the "
                          "point-to-point operations (communication.json);");
            pr_figs_note(f, note);
        }
    }
    pr_figs_table_own(f, &t, rows, NULL);
    if (finding == NULL) {
        cross_waits(f, p);
        return;
    }
    items = cJSON_CreateArray();
    it = cJSON_CreateObject();
    if (items == NULL || it == NULL || !cJSON_AddItemToArray(items, it) ||
        !cJSON_AddStringToObject(it, "sev", "warning") ||
        !cJSON_AddStringToObject(it, PR_K_TITLE, "Pipeline stage imbalance") ||
        !cJSON_AddStringToObject(it, PR_K_TEXT, finding) ||
        !cJSON_AddStringToObject(it, "code", "pipeline_stage_imbalance")) {
        if (it != NULL && !cJSON_IsArray(items))
            cJSON_Delete(it);
        cJSON_Delete(items);
        pr_figs_nomem(f);
        return;
    }
    pr_figs_items(f, items);
    cross_waits(f, p);
}

/* ---- where each rank's HCCL time went */

static const struct pr_col hccl_cols[] = {
    {"rank", PR_K_RANK, "Rank", PR_FMT_COUNT, 0.5, NULL, PR_COL_BOTH},
    {"name", PR_K_NAME, "Operation", PR_FMT_NAME, 1.6, NULL, PR_COL_BOTH},
    {"tag", PR_K_GROUP_TAG, "Tag", PR_FMT_TEXT, 0.35,
     "the digits HCCL puts into the operation's name (hcom_allReduce__483_2: "
     "483; in these exports the last digits of its group's id): which "
     "group, in the PDF too",
     PR_COL_BOTH},
    {"kind", PR_K_KIND, "Kind", PR_FMT_TEXT, 0.95, NULL, PR_COL_BOTH},
    {"group", PR_K_GROUP, "Group", PR_FMT_TEXT, 1.1,
     "the producer's communication group of the operation (communication."
     "json's @<group>, analysis.db's): the group's name or its hash",
     PR_COL_BOTH | PR_COL_WIDE},
    {"calls", PR_K_CALLS, "Calls", PR_FMT_COUNT, 0.5, NULL, PR_COL_BOTH},
    {"elapse", PR_K_ELAPSE_US, "Elapse", PR_FMT_US, 0.8, NULL, PR_COL_BOTH},
    {"transit", PR_K_TRANSIT_US, "Transit", PR_FMT_US, 0.8,
     "moving data over the links", PR_COL_BOTH},
    {"wait", PR_K_WAIT_US, "Wait", PR_FMT_US, 0.8,
     "in Notify Wait tasks: waiting for the peers", PR_COL_BOTH},
    {"sync", PR_K_SYNCHRONIZATION_US, "Synchronization", PR_FMT_US, 1,
     "the part of Wait before the first transfer: waiting for the slowest "
     "peer to arrive",
     PR_COL_BOTH},
    {"idle", PR_K_IDLE_US, "Idle", PR_FMT_US, 0.7, "Elapse - Transit - Wait",
     PR_COL_BOTH},
    {"bytes", PR_K_BYTES, "Transit size", PR_FMT_BYTES, 0.9,
     "SDMA + RDMA (SDMA is HCCS + PCIE + SIO)", PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* Every run's hccl.ops rows with the run's rank; NULL when none. */
static cJSON *
hccl_rows(const cJSON *runs)
{
    cJSON *rows = cJSON_CreateArray();
    const cJSON *run, *op;
    int any = 0;

    cJSON_ArrayForEach(run, runs)
    {
        cJSON_ArrayForEach(op, pr_sget(pr_sget(run, PR_K_HCCL), PR_K_OPS))
        {
            cJSON *r = cJSON_Duplicate(op, 1);
            double rank = pr_sget_num(run, PR_K_RANK);
            cJSON *v =
                isnan(rank) ? cJSON_CreateNull() : cJSON_CreateNumber(rank);
            if (rows == NULL || r == NULL || v == NULL ||
                !cJSON_AddItemToObject(r, PR_K_RANK, v) ||
                !cJSON_AddItemToArray(rows, r)) {
                cJSON_Delete(r);
                cJSON_Delete(rows);
                return NULL;
            }
            any = 1;
        }
    }
    if (!any) {
        cJSON_Delete(rows);
        return NULL;
    }
    return rows;
}

struct by_elapse {
    cJSON *row;
    size_t at; /* its place in the ranks' order: ties keep it */
};

static int
cmp_by_elapse(const void *a, const void *b)
{
    const struct by_elapse *x = a, *y = b;
    double ex = pr_sget_num(x->row, PR_K_ELAPSE_US),
           ey = pr_sget_num(y->row, PR_K_ELAPSE_US);

    if (isnan(ex) != isnan(ey))
        return isnan(ex) ? 1 : -1; /* no Elapse last */
    if (!isnan(ex) && ex != ey)
        return ex > ey ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* The rows of every rank in one order, by Elapse, longest first: the
 * PDF's top N are the job's N longest, not the first rank's (issue #30:
 * old2023's "Top 8 of 20" showed rank 0's 1.96 ms row and left out rank
 * 1's 103 ms hcom_allReduce_); 0 on out-of-memory. */
static int
sort_by_elapse(cJSON *rows)
{
    size_t n = (size_t)cJSON_GetArraySize(rows), i;
    struct by_elapse *v = n ? malloc(n * sizeof(*v)) : NULL;

    if (n == 0)
        return 1;
    if (v == NULL)
        return 0;
    for (i = 0; i < n; i++) {
        v[i].row = cJSON_DetachItemFromArray(rows, 0);
        v[i].at = i;
    }
    qsort(v, n, sizeof(*v), cmp_by_elapse);
    for (i = 0; i < n; i++)
        cJSON_AddItemToArray(rows, v[i].row);
    free(v);
    return 1;
}

/* The runs with HCCL rows. */
static size_t
hccl_runs(const cJSON *runs)
{
    const cJSON *run;
    size_t n = 0;

    cJSON_ArrayForEach(run, runs)
    {
        n += pr_sget_len(pr_sget(pr_sget(run, PR_K_HCCL), PR_K_OPS)) > 0;
    }
    return n;
}

/* Whether every run with HCCL rows took them from MindSpore's hccl_raw. */
static int
hccl_raw_only(const cJSON *runs)
{
    const cJSON *run;
    int any = 0;

    cJSON_ArrayForEach(run, runs)
    {
        const cJSON *h = pr_sget(run, PR_K_HCCL);

        if (pr_sget_len(pr_sget(h, PR_K_OPS)) == 0)
            continue;
        if (!pr_sget_is(pr_sget_str(h, PR_K_SOURCE), "hccl_raw"))
            return 0;
        any = 1;
    }
    return any;
}

/* The HCCL rows' source when every run with rows took them from one
 * other than communication.json (tnpu db_level1's "analysis.db
 * CommAnalyzerTime"), else NULL: the headings name the file the numbers
 * came from (issue #30 review). */
static const char *
hccl_db_source(const cJSON *runs)
{
    const cJSON *run;
    const char *src = NULL;

    cJSON_ArrayForEach(run, runs)
    {
        const cJSON *h = pr_sget(run, PR_K_HCCL);
        const char *x = pr_sget_str(h, PR_K_SOURCE);

        if (pr_sget_len(pr_sget(h, PR_K_OPS)) == 0)
            continue;
        if (x == NULL || strstr(x, "analysis.db") == NULL ||
            (src != NULL && strcmp(src, x) != 0))
            return NULL;
        src = x;
    }
    return src;
}

/* The calls that carried 1 MiB or more over their links while the file
 * gives them a Transit Time of 0 (review32a #7: old2023's hcom_allGather_,
 * 8 calls, 1.09 GiB over HCCS, Transit 0, all of its 9.69 ms "Idle"),
 * by row: named in a note, so that the table's 0 is not read as no
 * transfer, with the producer's own per-link figure under its name
 * (link_type, link_bandwidth_gbps): never rated as the operation's
 * bandwidth, the link's Transit Time being its transfers' time summed
 * (issue #30: hcom_allReduce__483_2, HCCS 7.65 ms in a 2.09 ms
 * operation).  One rule (issue #30, second review): the calls of 1 MiB
 * or more, the ones a per-link figure is given for, their count said
 * where the row also holds other calls; those under 1 MiB (latency)
 * only counted.  A summary without transit_zero_calls (an older one):
 * the rows whose Transit is 0, as it listed them. */
static void
zero_transit(struct pr_figs *f, const cJSON *rows)
{
    /* room for the list (cut at 1,300 characters, the rest counted) and
       the three sentences after it (issue #30 review: cut at 1,800, the
       last sentence ended "which may run sid") */
    char text[3000], fb[48], tag[40], link[96], part[64];
    size_t len = 0, n = 0, linked = 0, calls = 0, more = 0;
    double small = 0;
    const cJSON *r;
    int w;

    text[0] = '\0';
    cJSON_ArrayForEach(r, rows)
    {
        double b = pr_sget_num(r, PR_K_BYTES), rank = pr_sget_num(r, PR_K_RANK),
               lbw = pr_sget_num(r, PR_K_LINK_BANDWIDTH_GBPS),
               zc = pr_sget_num(r, PR_K_TRANSIT_ZERO_CALLS),
               zs = pr_sget_num(r, PR_K_TRANSIT_ZERO_SMALL_CALLS),
               all = pr_sget_num(r, PR_K_CALLS);
        const char *lt = pr_sget_str(r, PR_K_LINK_TYPE),
                   *gt = pr_sget_str(r, PR_K_GROUP_TAG);

        if (zs > 0)
            small += zs;
        if (!isnan(zc)) {
            if (!(zc > 0))
                continue;
            b = pr_sget_num(r, PR_K_TRANSIT_ZERO_BYTES);
        } else if (!(b > 0) || pr_sget_num(r, PR_K_TRANSIT_US) != 0)
            continue;
        if (len >= 1300) {
            more++;
            continue;
        }
        snprintf(tag, sizeof(tag), "%s%s", gt ? " " : "", gt ? gt : "");
        part[0] = '\0';
        if (zc > 0 && all > zc)
            snprintf(part, sizeof(part), "%.0f of its %.0f calls; ", zc, all);
        link[0] = '\0';
        if (lt != NULL && !isnan(lbw)) {
            snprintf(link, sizeof(link), "; %s per-link bandwidth %.1f GB/s",
                     lt, lbw);
            linked++;
        }
        w = snprintf(text + len, sizeof(text) - len, "%s%s%.0f %s%s (%s%s%s)",
                     n > 0 ? ", "
                           : "Operations with 1 MiB or more on their links "
                             "but a Transit Time of 0: ",
                     isnan(rank) ? "" : "rank ", isnan(rank) ? 0 : rank,
                     pr_sget_str_or(r, PR_K_NAME, "?"), tag, part,
                     pr_chart_format(b, PR_UNIT_BYTES, fb, sizeof(fb)), link);
        if (w < 0)
            break;
        len += (size_t)w;
        n++;
        calls += zc > 0 ? (size_t)zc : 0;
    }
    if (n == 0 || len >= sizeof(text))
        return;
    if (more > 0) {
        w = snprintf(text + len, sizeof(text) - len, " and %zu more", more);
        len = w < 0 ? sizeof(text) - 1 : len + (size_t)w;
    }
    w = snprintf(text + len, sizeof(text) - len,
                 ". communication.json's Bandwidth Info gives these bytes "
                 "moved, yet %s op-level Transit Time is 0: the transfer "
                 "is counted in Idle here, not Transit, and no algbw or "
                 "busbw is rated over %s.",
                 n == 1 && calls <= 1 ? "the operation's" : "these operations'",
                 n == 1 && calls <= 1 ? "it" : "them");
    len = w < 0 ? sizeof(text) : len + (size_t)w;
    if (small > 0 && len < sizeof(text)) {
        w = snprintf(text + len, sizeof(text) - len,
                     " %.0f call(s) of Transit Time 0 that sent under 1 MiB "
                     "(latency, not bandwidth) are not listed.",
                     small);
        len = w < 0 ? sizeof(text) : len + (size_t)w;
    }
    if (linked > 0 && len < sizeof(text))
        snprintf(text + len, sizeof(text) - len,
                 " The per-link bandwidth is msprof's own Bandwidth(GB/s) of "
                 "that link type: its bytes over its Transit Time, the time "
                 "of its transfers summed, which may run side by side on "
                 "several links; it is not the operation's bandwidth.");
    pr_figs_note(f, text);
}

/* hccl_raw's rows rated (transit_bandwidth_gbps): their sizes over their
 * links' own time, as HcclParser rates a link, in words beside the table
 * (issue #30: ms_cluster4's AllReduce, 20.6 GB/s over its "1-0" link). */
static void
raw_rates(struct pr_figs *f, const cJSON *rows)
{
    char text[1400], bw[32];
    const cJSON *r;
    size_t len = 0;
    int n = 0, w;

    cJSON_ArrayForEach(r, rows)
    {
        double g = pr_sget_num(r, PR_K_TRANSIT_BANDWIDTH_GBPS),
               rank = pr_sget_num(r, PR_K_RANK);

        if (isnan(g) || len >= sizeof(text) - 200)
            continue;
        w = snprintf(text + len, sizeof(text) - len,
                     "%s%s%.0f %s %s (%.0f of %.0f calls)",
                     n > 0 ? ", "
                           : "Over their links' own time (HcclParser's "
                             "per-link bandwidth: each link entry's size "
                             "over its time), the operations of 1 MiB or "
                             "more moved: ",
                     isnan(rank) ? "" : "rank ", isnan(rank) ? 0 : rank,
                     pr_sget_str_or(r, PR_K_NAME, "?"),
                     pr_fig_format(g, PR_FMT_GBPS, bw, sizeof(bw)),
                     pr_sget_num(r, PR_K_RATED_CALLS),
                     pr_sget_num(r, PR_K_CALLS));
        if (w < 0)
            return;
        len += (size_t)w;
        n++;
    }
    if (n == 0 || len >= sizeof(text) - 120)
        return;
    snprintf(text + len, sizeof(text) - len,
             ". An operation under 1 MiB is not rated: its time is latency, "
             "not bandwidth.");
    pr_figs_note(f, text);
}

void
pr_sec_npu_comm(struct pr_figs *f, const cJSON *summary)
{
    const cJSON *d = pr_sget(summary, PR_K_DISTRIBUTED);
    struct pr_fig_table t = {.cols = hccl_cols,
                             .what = "HCCL operation types",
                             .order = "Elapse, all ranks together",
                             .report_only = 1};
    static const char *const no_group[] = {"group", "tag", NULL};
    static const char *const no_tag[] = {"tag", NULL};
    cJSON *rows;
    const cJSON *r;
    int grouped = 0, tagged = 0;

    pipeline(f, pr_sget(d, PR_K_PIPELINE));
    rows = hccl_rows(pr_sget(summary, PR_K_RUNS));
    if (rows == NULL)
        return;
    cJSON_ArrayForEach(r, rows)
    {
        grouped |= pr_sget_str(r, PR_K_GROUP) != NULL;
        tagged |= pr_sget_str(r, PR_K_GROUP_TAG) != NULL;
    }
    if (!grouped) /* MindSpore's hccl_raw names no group */
        t.hide = no_group;
    else if (!tagged)
        t.hide = no_tag;
    if (hccl_raw_only(pr_sget(summary, PR_K_RUNS))) {
        /* MindSpore's hccl_raw gives no Elapse (review30a #8) */
        t.order = "rank, then operation";
        pr_figs_heading(f, "HCCL time by operation (MindSpore's hccl_raw)");
        pr_figs_note(f, "Where each rank's HCCL time went, summed over the "
                        "steps MindSpore's HcclParser assigns its "
                        "operators to: Transit is its communication_cost "
                        "(the main stream's transfers over the links), Wait "
                        "its wait_cost (Notify Wait less the links' own "
                        "wait); the file gives no Elapse, Synchronization "
                        "or Idle. Transit size is its link_info sizes "
                        "(kB of 1,000 bytes), sent and received, over SDMA "
                        "and RDMA, but a collective's pairs of a rank with "
                        "itself (\"0-0\"): the parser's SDMA copies in the "
                        "card, which cross no link. A Send's or Receive's "
                        "such pair is kept: the parser writes it where HCCL "
                        "gave no peer, and it moves the peer's bytes at the "
                        "link's speed.");
        raw_rates(f, rows);
        pr_figs_table_own(f, &t, rows, NULL);
        return;
    }
    if (hccl_runs(pr_sget(summary, PR_K_RUNS)) < 2)
        t.order = "Elapse"; /* one rank's rows: none to put together */
    {
        const char *db = hccl_db_source(pr_sget(summary, PR_K_RUNS));
        char head[160], note[300];

        snprintf(head, sizeof(head), "HCCL time by operation (%s)",
                 db != NULL ? db : "communication.json");
        snprintf(note, sizeof(note),
                 "Where each rank's HCCL time went, summed over its steps, "
                 "as %s splits it%s: Elapse = Transit + Wait + Idle.",
                 db != NULL ? db : "communication.json",
                 db != NULL ? " (communication.json's split in the "
                              "export's database)"
                            : "");
        pr_figs_heading(f, head);
        pr_figs_note(f, note);
    }
    zero_transit(f, rows); /* in the ranks' order */
    if (!sort_by_elapse(rows)) {
        cJSON_Delete(rows);
        pr_figs_nomem(f);
        return;
    }
    pr_figs_table_own(f, &t, rows, NULL);
}
