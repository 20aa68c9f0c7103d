/* merge.h - one job out of several saved summaries: the step where
 * per-rank summaries computed apart (a Slurm array, xargs -P) become one
 * job (issue #17); and the same store for the runs of a job's traces
 * read directly (issue #33: pr_merge_new, pr_merge_take).
 *
 * The merge streams: each summary is read, reduced and freed before the
 * next, so 1,024 ranks never hold 1,024 summary trees.  What stays of a
 * run is its "lite" form, the members the job-level views read
 * (distributed.c, job.c) and the pipeline's own checks: the keys flagged
 * LITE in src/summary/schema.def (worker, span, rank, world_size,
 * step_summary, communication, ...; numbers as the summary prints them,
 * jtext.h), and of the steps, operators and kernels only their LITE keys
 * (a step's name, duration_us and breakdown_us.communication, ...).  The
 * caller rebuilds the job views over the lite runs (pr_summary_finish),
 * which gives the same figures as the whole runs; a run is read whole
 * again from its file only where it is written or drawn in full
 * (pr_merge_run).
 *
 * A reader of runs in the job views that starts reading another member of
 * a run must flag its row LITE in schema.def; test_merge checks the views
 * of lite and whole runs against each other, and that a lite run holds
 * exactly the LITE keys of its whole run. */
#ifndef PROFREPORT_MERGE_H
#define PROFREPORT_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"

/* Where each lite run of a merged summary came from. */
struct pr_merge;

/* *doc: a summary whose "runs" hold input `origin`'s runs again, in the
 * order they were first given (pr_merge_take); the caller owns it. */
typedef enum pr_status (*pr_merge_load_fn)(void *ctx, size_t origin,
                                           cJSON **doc, struct pr_error *err);

/* A store for the runs of inputs handed over one at a time: the traces
 * of a job read directly (issue #33), each input's runs taken as soon as
 * they are analysed, so that the job holds its lite runs, rank forms and
 * some whole runs, never every whole run.  paths[origin] names input
 * `origin` in messages; load(ctx, origin) gives its runs again (NULL:
 * paths are saved summaries, read again).  Whole runs are held as they
 * are taken while they total at most hold_nodes cJSON nodes, so a small
 * job is never read twice.  NULL on out-of-memory. */
struct pr_merge *pr_merge_new(const char *const *paths, pr_merge_load_fn load,
                              void *ctx, size_t hold_nodes);

/* Take every element of the array `runs` (whole runs of input `origin`,
 * detached and kept compact, held or freed).  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_merge_take(struct pr_merge *m, cJSON *runs,
                                          size_t origin, struct pr_error *err);

/* Append the lite form of every run taken, in order, to job["runs"]. Call
 * once, after the last pr_merge_take.  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_merge_finish(struct pr_merge *m, cJSON *job,
                                            struct pr_error *err);

/* Read the n >= 1 saved summaries paths[i] (pr_saved_load) one at a time
 * into *out: the first summary's members, every later one's inputs
 * appended in order, and "runs" holding the lite form of every run in
 * input order.  *m receives the record of the runs' files; paths must
 * outlive it, and *m must outlive *out (the lite runs borrow its names).
 * Peak memory: one summary tree plus the lite runs.  Errors (nothing
 * returned): those of pr_saved_load; PR_E_FORMAT when two summaries hold
 * the same run (worker, span and rank), naming both files, or when one is
 * a job's summary with runs in rank form (rank_form.h); PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_merge_load(const char *const *paths, size_t n,
                                          uint64_t max, cJSON **out,
                                          struct pr_merge **m,
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

/* What the job's views add to a whole run (a rank's finding from the
 * job's pipeline stages, stages.h): run may be one fn saw before (the
 * same file read again), where it must change nothing more. */
typedef enum pr_status (*pr_merge_amend_fn)(void *ctx, cJSON *run,
                                            struct pr_error *err);

/* Once the job's views are built: fn on every run m holds whole, its
 * rank form made again from it, and on each run pr_merge_run reads again
 * from its file later.  A run neither held nor written whole keeps the
 * rank form it had (a large job's; read again it is amended).  Errors:
 * fn's, PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_merge_amend(struct pr_merge *m,
                                           pr_merge_amend_fn fn, void *ctx,
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

/* Mark the lite run `run` of m as one written whole (a detail run of
 * the job's summary); the others are written in their rank form. */
void pr_merge_mark_full(struct pr_merge *m, const cJSON *run);

/* How many lite runs are not marked whole. */
size_t pr_merge_n_forms(const struct pr_merge *m);

/* pr_merge_expand of the runs marked whole only. */
PR_NODISCARD enum pr_status
pr_merge_expand_full(struct pr_merge *m, cJSON *runs, struct pr_error *err);

/* What --json writes for `run`: the whole run (pr_merge_run) when it is
 * marked whole or unknown to m (*use NULL: run itself), else its rank
 * form (rank_form.h), borrowed until the next call.  Errors: those of
 * pr_merge_run, PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_merge_json_run(struct pr_merge *m,
                                              const cJSON *run,
                                              const cJSON **use,
                                              struct pr_error *err);

void pr_merge_free(struct pr_merge *m); /* accepts NULL */

#endif
