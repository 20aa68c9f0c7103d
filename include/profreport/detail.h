/* detail.h - which runs a report shows in full (issue #18).  A job of many
 * ranks gets one job overview (sec_job.c) and full per-run sections only
 * for a few chosen ranks, so the HTML and the PDF grow with the detail
 * ranks, not with the world size.  The summary JSON keeps every run; the
 * reports are drawn from a view of it whose "runs" hold the chosen ones.
 *
 * A choice is a comma-separated list of: slowest, median, fastest (by mean
 * step time, from summary["job"]), a rank number, or all. */
#ifndef PROFREPORT_DETAIL_H
#define PROFREPORT_DETAIL_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"

#define PR_DETAIL_DEFAULT "slowest,median,0"
#define PR_DETAIL_TOP 20 /* rows per table in a job's report (no --top) */
/* and in a job's PDF: its pages follow the detail ranks, about ten each,
 * below 40 with the default three at any world size (issue #33) */
#define PR_DETAIL_TOP_PDF 8

/* PR_OK when `spec` is a valid choice, else PR_E_USAGE naming the bad
 * word. */
PR_NODISCARD enum pr_status pr_detail_check(const char *spec,
                                            struct pr_error *err);

/* *view: an object that borrows every member of `summary` (references:
 * the summary must outlive it, and cJSON_Delete(*view) frees only the
 * view), with "runs" narrowed to the chosen runs and a "detail" object
 * {"spec", "of", "runs": [{"run", "worker", "why"}], "missing": [...]}
 * saying which and why.  A summary without a job view (one worker), or
 * spec "all", keeps every run.  spec NULL = PR_DETAIL_DEFAULT.  Errors:
 * PR_E_NOMEM, PR_E_USAGE. */
PR_NODISCARD enum pr_status pr_detail_view(const cJSON *summary,
                                           const char *spec, cJSON **view,
                                           struct pr_error *err);

/* The number of jobs of a summary that holds several (summary["jobs"],
 * docs/summary-json.md), else 0. */
size_t pr_detail_n_jobs(const cJSON *summary);

/* The jobs of such a summary, with the pairing of runs and inputs every
 * job's view needs made once (n views stay linear in the runs, issue
 * #35).  The summary must outlive the set.  Errors: PR_E_NOMEM (*set
 * NULL).  pr_detail_jobs_close(NULL) does nothing. */
struct pr_job_set;
PR_NODISCARD enum pr_status pr_detail_jobs_open(const cJSON *summary,
                                                struct pr_job_set **set,
                                                struct pr_error *err);
void pr_detail_jobs_close(struct pr_job_set *set);

/* The report view of job k (0-based) of the set's summary: *base looks
 * like the summary of that job alone (its runs, inputs, distributed and
 * job views; every other member borrowed; no "jobs"), and *view is *base
 * narrowed as pr_detail_view does.  Free *view, then *base (both NULL
 * after an error).  Errors: PR_E_NOMEM, PR_E_USAGE (spec), PR_E_FORMAT (no
 * such job). */
PR_NODISCARD enum pr_status pr_detail_job_view(const struct pr_job_set *set,
                                               size_t k, const char *spec,
                                               cJSON **base, cJSON **view,
                                               struct pr_error *err);

/* mark[i] = 1 for each run i of `summary` that its reports draw in full
 * with `spec` (every job's detail runs when it holds several), else 0;
 * mark holds one byte per run.  What a job's summary keeps whole (issue
 * #33).  Errors: PR_E_NOMEM, PR_E_USAGE. */
PR_NODISCARD enum pr_status pr_detail_marks(const cJSON *summary,
                                            const char *spec,
                                            unsigned char *mark,
                                            struct pr_error *err);

struct pr_figs;

/* The index of such a summary's jobs, for the report's first part: a
 * line on how runs were grouped and a table of the jobs. */
void pr_detail_jobs_index(struct pr_figs *f, const cJSON *summary);

/* One sentence for the report: which runs are shown in full and why
 * ("Full detail below for rank 7 (slowest), ..."), from a view's
 * "detail"; n >= 64. */
void pr_detail_describe(const cJSON *view, char *buf, size_t n);

/* A job's world size in words for a sentence: "8", "at least 6" (links'
 * lower bound), or "more" when not known (job["world_size"],
 * job["world_size_at_least"]). */
void pr_detail_world_words(const cJSON *job, char *buf, size_t n);

#endif
