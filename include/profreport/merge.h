/* merge.h - one job out of several saved summaries: the step where
 * per-rank summaries computed apart (a Slurm array, xargs -P) become one
 * job (issue #17).
 *
 * The merge streams: each summary is read, reduced and freed before the
 * next, so 1,024 ranks never hold 1,024 summary trees.  What stays of a
 * run is its "lite" form, the members the job-level views read
 * (distributed.c, job.c) and the pipeline's own checks: worker, span,
 * rank, world_size, step_summary, communication, the steps' name and
 * duration_us, the operators' name, calls, device_self_us and
 * host_self_us, the kernels' name, calls and total_us.  The caller
 * rebuilds the job views over the lite runs (pr_summary_finish), which
 * gives the same figures as the whole runs; a run is read whole again from
 * its file only where it is written or drawn in full (pr_merge_run).
 *
 * A reader of runs in the job views that starts reading another member of
 * a run must add it to the lite form (merge.c, keep[]); test_merge checks
 * the views of lite and whole runs against each other. */
#ifndef PROFREPORT_MERGE_H
#define PROFREPORT_MERGE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"

/* Where each lite run of a merged summary came from. */
struct pr_merge;

/* Read the n >= 1 saved summaries paths[i] (pr_saved_load) one at a time
 * into *out: the first summary's members, every later one's inputs
 * appended in order, and "runs" holding the lite form of every run in
 * input order.  *m receives the record of the runs' files; paths must
 * outlive it, and *m must outlive *out (the lite runs borrow its names).
 * Peak memory: one summary tree plus the lite runs.  Errors (nothing
 * returned): those of pr_saved_load; PR_E_FORMAT when two summaries hold
 * the same run (worker, span and rank), naming both files; PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_merge_load(const char *const *paths, size_t n,
                                          cJSON **out, struct pr_merge **m,
                                          struct pr_error *err);

/* *full: the whole run that `run` stands for, when run is a lite run of
 * m's summary or a reference to one (cJSON_AddItemReferenceToArray), read
 * again from its file; NULL for any other item.  Borrowed: valid until the
 * next call or pr_merge_free.  The last 4 files read are held, so runs
 * taken in summary order read each file once unless more than 4 files
 * of several runs interleave.  Errors: those of pr_saved_load; PR_E_FORMAT when
 * the file no longer holds that run (changed since pr_merge_load). */
PR_NODISCARD enum pr_status pr_merge_run(struct pr_merge *m, const cJSON *run,
                                         const cJSON **full,
                                         struct pr_error *err);

/* Replace every element of the array `runs` that pr_merge_run knows with
 * a copy of its whole run (a report's detail runs, or every run where a
 * consumer reads all of them).  Errors: those of pr_merge_run,
 * PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_merge_expand(struct pr_merge *m, cJSON *runs,
                                            struct pr_error *err);

/* In every element of the array `runs` that pr_merge_run knows, the
 * member at `path` ("key" or "key.sub") made its whole run's: a copy of
 * it, or removed when the whole run has none, the rest of the lite run
 * kept.  For a consumer of one member of every run (`table`): it holds
 * that member of all runs and one file at a time, not every whole run.
 * Each lite run is left unknown to pr_merge_run.  Errors: those of
 * pr_merge_run, PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_merge_expand_member(struct pr_merge *m,
                                                   cJSON *runs,
                                                   const char *path,
                                                   struct pr_error *err);

void pr_merge_free(struct pr_merge *m); /* accepts NULL */

#endif
