/* sec_verdict.c - the report's first section (issue #31): what bounds the
 * steps and the findings that would save the most, each with its gain
 * from the step graph's replay and the nodes on the critical path it
 * shortens (runs[].verdict, whatif.c).  The sections after it hold the
 * evidence: Critical path for the path, Recommendations for the advice. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/figures.h"
#include "profreport/keys.h"
#include "profreport/rows.h"
#include "profreport/sget.h"

const struct pr_col pr_fig_cols_findings[] = {
    {"rank", PR_K_RANK, "#", PR_FMT_COUNT, 0.3, NULL, PR_COL_BOTH},
    {"finding", PR_K_TITLE, "Finding", PR_FMT_WRAP, 2.2,
     "The recommendation (its advice in Recommendations below)",
     PR_COL_BOTH | PR_COL_LINK},
    {"saves", PR_K_SAVES, "Saves / step", PR_FMT_FIGURE, 1.5,
     "What the step graph replayed with the change applied (or a stated "
     "model) predicts it saves per step; \xe2\x89\xa4 marks an upper bound "
     "on what its change can save, alone (no estimate: ranked after the "
     "gains) or in brackets beside the estimate (empty: neither, and the "
     "evidence says why)",
     PR_COL_BOTH},
    {"gain", PR_K_GAIN_US, "Gain / step", PR_FMT_US, 0.8,
     "The estimated gain alone (empty for a bound alone)", 0},
    {"bound", PR_K_BOUND_US, "At most / step", PR_FMT_US, 0.8,
     "The most the change can save, where known", 0},
    {"gain_pct", PR_K_GAIN_PCT, "Gain % / step", PR_FMT_PCT, 0.6,
     "The replayed gain's share of the step (empty for a bound)", 0},
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
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

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
    struct pr_fig_table t = {
        .cols = pr_fig_cols_findings, .rows = fs, .what = "findings"};
    struct pr_row_finding *rows = NULL;
    struct fcounts c;
    struct pr_error err;
    size_t n = 0;
    char note[1280];

    (void)summary;
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
    pr_figs_table(f, "What to fix first", &t, NULL);
    /* (the loader read the rows whole: a run made here or a saved one
       that passed its contract) */
    if (pr_rows_load(fs, PR_K_FINDINGS, PR_RO_RUNS_VERDICT_FINDINGS,
                     (void **)&rows, &n, &err) != PR_OK)
        n = 0;
    count_findings(rows, n, &c);
    free(rows);
    /* two gains or more: each is its change alone (review-2 finding 12:
       host_sync 11.3% and launch_bound 8.6% read as 19.9% together, where
       after a removed sync the queue is empty and the next kernels wait
       for their launches) */
    snprintf(note, sizeof(note), "%s%s%s%s%s",
             c.replay == 0 && c.model > 0
                 ? "Gains are estimates from a stated model, not a replay "
                   "of the step's graph (the export holds no tasks to "
                   "replay, the core count is unknown, or the change is "
                   "not a graph edit): each finding's evidence names its "
                   "model, or the work it rests on and its finding the "
                   "model."
             : cJSON_IsTrue(pr_sget(run, PR_K_HOST_ONLY))
                 ? "Gains are predictions: the host's path replayed with the "
                   "change applied (a CPU-only run has no Critical path part; "
                   "Recommendations holds each finding's advice)."
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
                 ? " \xe2\x89\xa4 X is an upper bound on what the change "
                   "can save (a replay or model that takes off all the time "
                   "the change could, or the change's work on the path; its "
                   "evidence says what it counts): alone, with no estimate, "
                   "it ranks after the gains, by its value; beside a gain, "
                   "\"A (\xe2\x89\xa4 B)\", the finding ranks by the "
                   "gain A."
                 : "",
             c.replay > 0 && c.model > 0
                 ? " A gain whose evidence begins \"Model, not a replay\" "
                   "or ends \"(a stated model's estimate: ...)\" or "
                   "\"(... the estimate under it is a stated model's ...)\" "
                   "is a model's estimate, not a replay."
                 : "",
             c.batch
                 ? " A gain at 2\xc3\x97 batch is the time saved per step's "
                   "worth of samples with twice the batch (the batch size "
                   "changes), so it ranks after the same-batch gains."
                 : "");
    pr_figs_note(f, note);
}

/* The section: read by the table in sections.c. */
const struct pr_section pr_section_verdict = {
    .id = "verdict",
    .title = "Verdict",
    .lede = "What bounds the step and what each fix would save: estimated "
            "gains first, largest first, then upper bounds alone "
            "(\xe2\x89\xa4).",
    .per_run = 1,
    .build = build,
    .present = present};
