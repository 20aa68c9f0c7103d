/* jobs.h - which runs of a summary are one job (issue #15).  A folder of
 * unrelated traces must not read as one job: its job figures (distributed,
 * stragglers, the job overview) would mix them.  Runs are grouped by what
 * they carry:
 *
 *   - the folder they came from: sibling files of one folder are one job,
 *     distinct folders distinct jobs, unless the evidence says otherwise;
 *   - distributedInfo: one job has one world size and backend, and each of
 *     its ranks is held by one worker (several spans of one worker are one
 *     process), so a rank number held by two workers splits a folder;
 *   - the start of each trace (its first event on the epoch clock), which
 *     pairs the ranks of a split folder and joins the ranks of one job kept
 *     in several folders (one per node): same world size and backend,
 *     disjoint ranks, started within PR_JOBS_WINDOW_NS of each other (or,
 *     with no start known, folders named alike but for their digits);
 *   - what they are: a PyTorch memory timeline (export_memory_timeline,
 *     the memory_timeline format) beside traces is the companion of a
 *     trace, not one more process, so never a rank of the traces' job:
 *     each timeline is a part of its own, named by its file ("worker_a.raw"),
 *     drawn in full (issue #29, memtl13).
 *
 * One job keeps the summary as it was ("job" and "distributed" over every
 * run).  Several add "jobs" (docs/summary-json.md) with each job's
 * distributed and job views, and set the top-level ones to null. */
#ifndef PROFREPORT_JOBS_H
#define PROFREPORT_JOBS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/trace.h"

#define PR_JOBS_WINDOW_NS (30LL * 60 * 1000000000) /* ranks start together */
#define PR_JOBS_ORIGIN "_origin" /* a run's private member, never written */

/* Record on `run` (a summary run) where it came from: the input's path,
 * the trace's start on the epoch clock and its backend, in a private
 * member that pr_jobs_build reads and removes.  A run without it (read
 * from a saved summary) is placed by its input's path alone.  Errors:
 * PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_jobs_note_origin(cJSON *run, const char *path,
                                                const struct pr_trace *t,
                                                struct pr_error *err);

/* Group summary["runs"] (in their final order) into jobs and build the
 * job-level views: for one job summary["distributed"] and ["job"] as
 * before; for several, summary["jobs"] with each job's views, and the
 * top-level two null.  Removes every run's private origin.  Errors:
 * PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_jobs_build(cJSON *summary, struct pr_error *err);

/* A saved summary an older profreport wrote (its jobs[] without "kind")
 * kept its memory timelines in one entry "<folder> (memory timeline)"
 * (runs of several files under one heading): split into one entry per
 * file, named by its run's worker (the file's name) with kind
 * "memory_timeline" and trace_worker, as pr_jobs_build names them now; an
 * entry whose run names no file keeps its name but is still marked a
 * memory timeline (never counted as a run or rank).  Entries of traces
 * are kept as written.  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_jobs_older_memtl(cJSON *summary,
                                                struct pr_error *err);

/* One line for the user when the summary holds several jobs: "read 3 jobs
 * from DIR: a (ranks 0-1 of 2), b (1 run), ..."; "" for one job.  A
 * summary of saved summaries names `saved_from`, the input the user gave
 * (not NULL), and the traces' folder as a note: "read 2 jobs from nightly
 * (saved summaries of the traces in runs): ...". */
void pr_jobs_describe(const cJSON *summary, const char *saved_from, char *buf,
                      size_t n);

#endif
