/* stages.h - the pipeline stages of an Ascend job and the finding they
 * support, from the ranks' own files as the summary holds them: the
 * communication groups of communication.json (runs[].hccl) and the step
 * phases of step_trace_time.csv (runs[].step_phases).  Stages are formed
 * as msprof-analyze's cluster analysis forms them (StageInfoAnalysis):
 * ranks joined by point-to-point groups are in different stages, ranks of
 * a collective group that holds at most one rank of each point-to-point
 * chain are in one; a stage's figures are the largest of its ranks', as
 * the stage rows of its cluster_step_trace_time.csv. */
#ifndef PROFREPORT_STAGES_H
#define PROFREPORT_STAGES_H

#include <cjson/cJSON.h>

#include "profreport/error.h"

/* Set distributed["pipeline"] from `runs`: null unless two stages or
 * more are found (docs/summary-json.md).  Where the stages' compute
 * differs, each rank's finding that balancing them answers (the slower
 * stage's pipeline_stage, the faster one's pipeline-bubble communication)
 * and its verdict row get the balance's gain (a 1F1B model, stages.c),
 * replacing what they held.  PR_E_NOMEM short of memory. */
PR_NODISCARD enum pr_status pr_stages_build(cJSON *runs, cJSON *d,
                                            struct pr_error *err);

/* The gains alone, as pr_stages_build puts them, over the runs of one
 * input (a MindSpore cluster folder holds every rank): the runs a report
 * writes in full are read again input by input, without the job's
 * views, and carry them from here.  PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_stages_gains(cJSON *runs, struct pr_error *err);

/* Rank `run`'s finding from the job's stages, `pipeline` as
 * distributed.pipeline holds it, where the ranks' groups formed them and
 * they are unbalanced (its finding set): a rank of the slower stage gets
 * a pipeline_stage finding, a rank of a faster one whose communication is
 * mostly point-to-point waiting gets that finding as a pipeline bubble
 * naming the stage it waits for (an observation made a recommendation
 * again), each with the stages' balance as its gain (a 1F1B model), and
 * the verdict's rows made again.  Run again on the same run it changes
 * nothing more: a report's runs read again after the job's views get it
 * too (pipeline.c).  PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_stages_apply(cJSON *run, const cJSON *pipeline,
                                            struct pr_error *err);

#endif
