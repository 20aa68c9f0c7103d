/* job.h - the whole job's view of a summary with several ranks (issue
 * #18): step time per rank as a distribution, the slowest and the median
 * rank, a rank x step heatmap reduced to at most PR_JOB_HEAT_ROWS x
 * PR_JOB_HEAT_COLS cells, and the operator and kernel tables aggregated
 * over ranks (mean, min, max and spread across ranks per row).
 *
 * Built from the summary's runs alone, never from a trace, so per-rank
 * summaries merged later give the same job view as the traces read
 * together; the report draws its job overview from it and shows the full
 * per-run detail only for a few chosen ranks. */
#ifndef PROFREPORT_JOB_H
#define PROFREPORT_JOB_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"

#define PR_JOB_HEAT_ROWS 64 /* rank groups at most */
#define PR_JOB_HEAT_COLS 64 /* step groups at most */
#define PR_JOB_MAX_ROWS 500 /* rows of each aggregated table */

/* Set summary["job"]: null unless the runs come from two workers or more,
 * else the job view (docs/summary-json.md, "job").  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_job_build(cJSON *summary, struct pr_error *err);

/* Where the job of runs names its late rank and it is missing, or every
 * rank here waits about as long in HCCL's Synchronization and the world
 * (its size; NAN unknown) has more ranks: the clause the coverage notes
 * put in place of "no straggler is named" into what (cap bytes), 1; 0
 * where there is none (not a job, the late rank here, no reading). */
int pr_job_late_clause(const cJSON *runs, double world, char *what, size_t cap);

/* A run's wait for rank in its late_peer's collective (runs[].late_peer.
 * waits[]), in us; NaN where it names none. */
double pr_job_wait_for(const cJSON *run, double rank);

/* The run's longest wait there for a rank other than late, that rank in
 * *rank (-1 none); 0 where none. */
double pr_job_next_wait(const cJSON *run, double late, double *rank);

/* The same for a rank other than a and b (a late pair's rest). */
double pr_job_wait_besides(const cJSON *run, double a, double b, double *rank);

#endif
