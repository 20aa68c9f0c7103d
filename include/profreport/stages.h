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

#endif
