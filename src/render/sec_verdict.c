/* sec_verdict.c - the report's first section (issue #31): what bounds the
 * steps and the findings that would save the most, each with its gain
 * from the step graph's replay and the nodes on the critical path it
 * shortens (runs[].verdict, whatif.c).  The sections after it hold the
 * evidence: Critical path for the path, Recommendations for the advice. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/figures.h"
#include "profreport/keys.h"
#include "profreport/rows.h"
#include "profreport/sget.h"

const struct pr_col pr_fig_cols_findings[] = {
    {"order", PR_K_RANK, "#", PR_FMT_COUNT, 0.3, NULL, PR_COL_BOTH},
    {"finding", PR_K_TITLE, "Finding", PR_FMT_WRAP, 2.2,
     "The recommendation (its advice in Recommendations below)",
     PR_COL_BOTH | PR_COL_LINK},
    {"saves", PR_K_SAVES, "Saves / step", PR_FMT_FIGURE, 1.5,
     "What the step graph replayed with the change applied (or a stated "
     "model) predicts it saves per step; \xe2\x89\xa4 marks an upper bound "
     "on what its change can save, in brackets beside the estimate, or "
     "alone for a finding not estimated (an observation)",
     PR_COL_BOTH},
    {"gain", PR_K_GAIN_US, "Gain / step", PR_FMT_US, 0.8,
     "The estimated gain alone (empty for a bound alone)", 0},
    {"bound", PR_K_BOUND_US, "At most / step", PR_FMT_US, 0.8,
     "The most the change can save, where known", 0},
    {"gain_pct", PR_K_GAIN_PCT, "Gain % / step", PR_FMT_PCT, 0.6,
     "The replayed gain's share of the step (empty for a bound)", 0},
    {"bound_pct", PR_K_BOUND_PCT, "At most % / step", PR_FMT_PCT, 0.6,
     "The bound's share of the mean step (empty where none)", 0},
    {"of_step", PR_K_OF_STEP, "Of step", PR_FMT_FIGURE, 0.75,
     "The saving's share of the mean step; \xe2\x89\xa4 for a bound alone; "
     "from the estimate's share to the bound's for both",
     PR_COL_BOTH},
    {"evidence", PR_K_EVIDENCE, "Evidence", PR_FMT_WRAP, 2.05,
     "The nodes of the critical path the change shortens most and what it "
     "takes off each per step (the path itself in Critical path below); "
     "for a finding whose calls lie beside the path (a host blocked in "
     "syncs) those calls, and where no gain is claimed, why",
     PR_COL_BOTH | PR_COL_LINK},
    {"id", PR_K_ID, "Id", PR_FMT_TEXT, 0.9, NULL, 0},
    {"kind", PR_K_KIND, "Kind", PR_FMT_TEXT, 1.0,
     "recommendation (a gain) or observation (none)", 0},
    {"basis", PR_K_GAIN_BASIS, "Per", PR_FMT_TEXT, 0.6,
     "What the gain compares: the same batch (the step or capture "
     "shorter), 2x batch (a step's worth of samples at twice the batch) "
     "or one-time (first-use costs the capture paid once)",
     0},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* The Not estimated table's columns: a finding no replay or model puts a
 * gain on, the most its change could save and why no estimate. */
static const struct pr_col obs_cols[] = {
    {"finding", PR_K_TITLE, "Finding", PR_FMT_WRAP, 2.2,
     "The finding (its text under Recommendations, Not estimated)",
     PR_COL_BOTH | PR_COL_LINK},
    {"saves", PR_K_SAVES, "At most / step", PR_FMT_FIGURE, 1.5,
     "The most its change could save a step, where known: an upper bound, "
     "not an estimate",
     PR_COL_BOTH},
    {"of_step", PR_K_OF_STEP, "Of step", PR_FMT_FIGURE, 0.75,
     "The bound's share of the mean step", PR_COL_BOTH},
    {"reason", PR_K_REASON, "Why no estimate", PR_FMT_WRAP, 2.35,
     "What the trace lacks for an estimate (the finding's text says more)",
     PR_COL_BOTH},
    {"evidence", PR_K_EVIDENCE, "Evidence", PR_FMT_WRAP, 1.6,
     "The work the bound rests on", PR_COL_BOTH | PR_COL_LINK},
    {"id", PR_K_ID, "Id", PR_FMT_TEXT, 0.9, NULL, 0},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* A verdict row's finding is an observation (runs[].observations: no
 * gain); a saved summary from before the kind column: no gain. */
static int
is_observation(const cJSON *row)
{
    const char *kind = pr_sget_str(row, PR_K_KIND);

    if (kind != NULL)
        return strcmp(kind, "observation") == 0;
    return isnan(pr_sget_num(row, PR_K_GAIN_US));
}

/* The rows of fs of one kind, as references (the caller deletes the
 * array); NULL when out of memory. */
static cJSON *
rows_of(const cJSON *fs, int observations)
{
    cJSON *a = cJSON_CreateArray();
    const cJSON *r;

    cJSON_ArrayForEach(r, fs)
    {
        if (a != NULL && is_observation(r) == observations &&
            !cJSON_AddItemReferenceToArray(a, (cJSON *)(uintptr_t)r)) {
            cJSON_Delete(a);
            return NULL;
        }
    }
    return a;
}

static int
present(const cJSON *summary)
{
    const cJSON *run;

    cJSON_ArrayForEach(run, pr_sget(summary, PR_K_RUNS))
    {
        if (pr_sget(run, PR_K_VERDICT) != NULL)
            return 1;
    }
    return 0;
}

/* What the note under the findings says, counted over the typed rows
 * (rows.def's verdict.findings): the findings whose gain is from a
 * replay or a model (gain_source), those with a bound alone (no gain)
 * from a replay (a replay that is a ceiling is still its change replayed
 * alone), those with a gain and those with a bound, and whether one's
 * gain is per step's worth of samples with the batch changed
 * (gain_basis "samples": its Saves "at 2x batch"). */
struct fcounts {
    size_t replay, model, replay_bounds, gains, bounds;
    int batch;
};

static void
count_findings(const struct pr_row_finding *x, size_t n, struct fcounts *c)
{
    const enum pr_rows_object ro = PR_RO_RUNS_VERDICT_FINDINGS;
    size_t i;

    memset(c, 0, sizeof(*c));
    for (i = 0; i < n; i++) {
        /* a column left out reads as null */
        int has_gain =
            pr_rows_has(ro, &x[i], PR_SR_RUNS_VERDICT_FINDINGS_PR_K_GAIN_US) &&
            !isnan(x[i].gain_us);
        int replay = pr_sget_is(x[i].gain_source, PR_GAIN_REPLAY);

        c->replay += replay;
        c->model += pr_sget_is(x[i].gain_source, PR_GAIN_MODEL);
        c->replay_bounds += !has_gain && x[i].bound_us > 0 && replay;
        c->gains += x[i].gain_pct > 0;
        c->bounds += x[i].bound_us > 0;
        c->batch |= pr_sget_is(x[i].gain_basis, PR_GAIN_PER_SAMPLES) &&
                    x[i].saves != NULL;
    }
}

static void
build(struct pr_figs *f, const cJSON *summary, const cJSON *run)
{
    const cJSON *v = pr_sget(run, PR_K_VERDICT);
    const cJSON *fs = pr_sget(v, PR_K_FINDINGS);
    struct pr_fig_table t = {.cols = pr_fig_cols_findings,
                             .rows = fs,
                             .what = "findings",
                             .capture = pr_sget_run_is_capture(run),
                             .host_step = pr_fig_run_host_step(run)};
    struct pr_row_finding *rows = NULL;
    cJSON *recs, *obs;
    size_t n_obs;
    struct fcounts c;
    struct pr_error err;
    size_t n = 0;
    char note[1280];
    int capture = pr_sget_run_is_capture(run);

    (void)summary;
    pr_fig_older_note(f, run);
    if (v == NULL) {
        pr_figs_note(f, "No verdict: this run was not analysed from a trace.");
        return;
    }
    pr_figs_text(f, pr_sget_str_or(v, PR_K_TEXT, ""));
    if (pr_sget_len(fs) == 0) {
        pr_figs_note(f, pr_sget_str_or(v, PR_K_NO_FINDING,
                                       "No finding: no rule's change shortens "
                                       "the critical path by 1% of the step "
                                       "or more."));
        return;
    }
    recs = rows_of(fs, 0);
    obs = rows_of(fs, 1);
    if (recs == NULL || obs == NULL) {
        cJSON_Delete(recs);
        cJSON_Delete(obs);
        pr_figs_nomem(f);
        return;
    }
    n_obs = pr_sget_len(obs);
    /* the counts first: the tables take the arrays over (the loader read
       the rows whole: a run made here or a saved one that passed its
       contract) */
    if (pr_rows_load(recs, PR_K_FINDINGS, PR_RO_RUNS_VERDICT_FINDINGS,
                     (void **)&rows, &n, &err) != PR_OK)
        n = 0;
    if (pr_sget_len(recs) > 0) {
        pr_figs_heading(f, "What to fix first");
        pr_figs_table_own(f, &t, recs, NULL);
    } else {
        cJSON_Delete(recs);
        pr_figs_note(f, "Nothing to rank by gain: no replay or model puts a "
                        "saving on what this trace shows. What it does show, "
                        "with the most a change could save, is below.");
    }
    if (n_obs > 0) {
        t = (struct pr_fig_table){.cols = obs_cols,
                                  .rows = NULL,
                                  .what = "findings",
                                  .capture = pr_sget_run_is_capture(run)};
        pr_figs_heading(f, "Not estimated");
        pr_figs_table_own(f, &t, obs, NULL);
    } else
        cJSON_Delete(obs);
    count_findings(rows, n, &c);
    free(rows);
    if (n == 0) {
        pr_figs_note(
            f, capture ? "\xe2\x89\xa4 X is an upper bound on what a "
                         "change could save over the capture (the "
                         "work on the path it could "
                         "take off, or a producer's table): the "
                         "trace does not allow an estimate under "
                         "it, and each row says why."
                       : "\xe2\x89\xa4 X is an upper bound on what a change "
                         "could save a step (the work on the path it could "
                         "take off, or a producer's table): the trace does "
                         "not allow an estimate under it, and each row says "
                         "why.");
        return;
    }
    /* two gains or more: each is its change alone (review-2 finding 12:
       host_sync 11.3% and launch_bound 8.6% read as 19.9% together, where
       after a removed sync the queue is empty and the next kernels wait
       for their launches) */
    snprintf(
        note, sizeof(note), "%s%s%s%s%s%s",
        c.replay == 0 && c.model > 0 && capture
            ? "Gains are estimates from a stated model, not a replay "
              "of the capture's graph (the export holds no tasks to "
              "replay, the core count is unknown, or the change is "
              "not a graph edit): each finding's evidence names its "
              "model, or the work it rests on and its finding the "
              "model."
        : c.replay == 0 && c.model > 0
            ? "Gains are estimates from a stated model, not a replay "
              "of the step's graph (the export holds no tasks to "
              "replay, the core count is unknown, or the change is "
              "not a graph edit): each finding's evidence names its "
              "model, or the work it rests on and its finding the "
              "model."
        : pr_sget_run_device_unrecorded(run)
            ? "Gains are predictions: the host's path replayed with the "
              "change applied (a run whose device side was not recorded has no "
              "Critical path part; Recommendations holds each finding's "
              "advice)."
        : cJSON_IsTrue(pr_sget(run, PR_K_HOST_ONLY))
            ? "Gains are predictions: the host's path replayed with the "
              "change applied (a CPU-only run has no Critical path part; "
              "Recommendations holds each finding's advice)."
        : capture ? "Gains are predictions: the capture's dependency graph "
                    "replayed with the change applied (see Critical path for "
                    "the path and its replay error, Recommendations for each "
                    "finding's advice)."
                  : "Gains are predictions: the step's dependency graph "
                    "replayed with the change applied (see Critical path for "
                    "the path and its replay error, Recommendations for each "
                    "finding's advice).",
        c.gains + c.replay_bounds > 1
            ? " Each gain is its change replayed alone: "
              "changes that shorten the same part of the path "
              "overlap, so the gains do not add up."
            : "",
        c.bounds > 0
            ? " In \"A (\xe2\x89\xa4 B)\", B is an upper bound on "
              "what the change can save (a replay or model that takes "
              "off all the time the change could, or the change's work "
              "on the path; its evidence says what it counts); the "
              "finding ranks by the gain A."
            : "",
        c.replay > 0 && c.model > 0
            ? " A gain whose evidence begins \"Model, not a replay\" "
              "or ends \"(a stated model's estimate: ...)\" or "
              "\"(... the estimate under it is a stated model's ...)\" "
              "is a model's estimate, not a replay."
            : "",
        c.batch && capture
            ? " A gain at 2\xc3\x97 batch is the time saved per capture's "
              "worth of samples with twice the batch (the batch size "
              "changes), so it ranks after the same-batch gains."
        : c.batch ? " A gain at 2\xc3\x97 batch is the time saved per step's "
                    "worth of samples with twice the batch (the batch size "
                    "changes), so it ranks after the same-batch gains."
                  : "",
        n_obs > 0 && capture
            ? " Not estimated: findings the trace shows but no replay or "
              "model can put a saving on; \xe2\x89\xa4 X is the most their "
              "change could save over the capture."
        : n_obs > 0 ? " Not estimated: findings the trace shows but no replay "
                      "or model can put a saving on; \xe2\x89\xa4 X is the "
                      "most their change could save a step."
                    : "");
    pr_figs_note(f, note);
}

/* The section: read by the table in sections.c. */
const struct pr_section pr_section_verdict = {
    .id = "verdict",
    .title = "Verdict",
    .lede = "What bounds the step and what each fix would save, largest "
            "first (\xe2\x89\xa4: the most a change could save, where no "
            "estimate is possible).",
    .per_run = 1,
    .build = build,
    .present = present};
