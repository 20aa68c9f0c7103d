/* sget.h - null-safe reads of a summary tree (or of any cJSON tree built
 * the same way: the diff and trend trees).  Every reader of the summary
 * uses these instead of its own copy: a missing key, a null, a value of the
 * wrong type and a non-object parent all read as "absent" (NULL, NAN, 0),
 * never as a crash.  Nothing here allocates or fails, except the one
 * writer at the end, pr_sput. */
#ifndef PROFREPORT_SGET_H
#define PROFREPORT_SGET_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* o[key]; NULL when o is not an object or has no such key. */
const cJSON *pr_sget(const cJSON *o, const char *key);

/* o[a][b]... for a dotted path "a.b" (at most one level per dot; a segment
 * longer than 63 bytes reads as absent). */
const cJSON *pr_sget_path(const cJSON *o, const char *path);

/* o[key] as a finite number; NAN when absent, null, not a number or not
 * finite. */
double pr_sget_num(const cJSON *o, const char *key);

/* o[key] as a whole number in [-2^31, 2^31) (a count, an index, a rank
 * of a saved summary); dflt when absent, not finite, fractional or out of
 * that range, so a cast of it never overflows. */
long pr_sget_long(const cJSON *o, const char *key, long dflt);

/* o[key] as a string, borrowed from the tree; NULL when not a string. */
const char *pr_sget_str(const cJSON *o, const char *key);

/* As pr_sget_str, with `dflt` in place of NULL. */
const char *pr_sget_str_or(const cJSON *o, const char *key, const char *dflt);

/* 1 when o[key] is true, else 0. */
int pr_sget_true(const cJSON *o, const char *key);

/* Number of elements when a is an array, else 0. */
size_t pr_sget_len(const cJSON *a);

/* The first element of the array o[key], or NULL. */
const cJSON *pr_sget_first(const cJSON *o, const char *key);

/* The first object of array `arr` whose string `key` is `value`, or
 * NULL (a recommendation by its id, a job by its name). */
const cJSON *pr_sget_find(const cJSON *arr, const char *key, const char *value);

/* A run of the array `runs` named for people: its worker ("?" without
 * one), with " (span S)" when another run of `runs` has the same worker
 * (two profiling spans of one process), so two runs never read alike.
 * Written into buf (n >= 1, truncated to fit); returns buf.  O(runs);
 * cannot fail.  runs may be NULL (then the worker alone). */
char *pr_sget_run_name(const cJSON *runs, const cJSON *run, char *buf,
                       size_t n);

/* 1 when two runs of `runs` share a worker (so the span tells them
 * apart), else 0.  O(runs^2) at worst; cannot fail. */
int pr_sget_spans_matter(const cJSON *runs);

/* 1 when s (may be NULL) equals want, else 0. */
int pr_sget_is(const char *s, const char *want);

/* 1 for a run without steps: its step_summary.basis is "capture", its one
 * window the whole capture (steps.h's PR_STEPS_CAPTURE_NAME). */
int pr_sget_run_is_capture(const cJSON *run);

/* 1 where the run's only step is the program's first iteration: MindSpore
 * and msprof number iterations from 1 ("Step 1" of a MindSpore run),
 * PyTorch's profiler its steps from 0 ("ProfilerStep#0"; torch_npu's
 * "Step 0", its ProfilerStep id).  Such a step holds link setup and every
 * first call's cost, so it cannot show what recurs (review 31 #6). */
int pr_sget_run_first_iteration_only(const cJSON *run);

/* 1 where every run of runs that waits for a late rank does so in its
 * warm-up first step only (late_peer.first_step_pct >= 80; hunt30 #2),
 * and at least one does: the job line and its KPI card both say so. */
int pr_sget_runs_late_first_step_only(const cJSON *runs);

/* 1 for a host-only run whose device side was not recorded (review23g
 * item 3): the trace names its GPUs (devices listed though host_only) or
 * holds NCCL collectives (communication.ops[].backend "nccl", which run
 * as GPU kernels), yet records no device activity; 2 where the NCCL
 * collectives are the evidence; 0 otherwise (a CPU-only run).  Read from
 * runs[].device_not_recorded ("nccl_calls" 2, "devices_named" 1, null
 * 0), which the analysis writes from this judgement; judged from
 * host_only, communication and devices where the run lacks the key (a
 * summary older than it, or a run whose analysis has not written it). */
int pr_sget_run_device_unrecorded(const cJSON *run);

/* Where the steps' unrecorded host time (host_coverage, hostcov.c) is
 * held by the trace's own Python frames (python_pct >= 50, review 32g
 * #2): appends to text (at len, cap) ", the trace's Python frames hold
 * N% of it (most: A; B; C)" and returns the new length; returns len and
 * appends nothing otherwise, the "not in the trace" reading. */
size_t pr_sget_host_python(const cJSON *run, char *text, size_t cap,
                           size_t len);

/* 1 when a run's world_size is only a lower bound: world_size_bound
 * "at_least", or, in a summary older than that key, world_size_source
 * "communication groups" (the ranks its groups name, issue #30); 0 when
 * exact or absent. */
int pr_sget_run_world_floor(const cJSON *run);

/* The diagnostics row a run read from a summary an older profreport wrote
 * gets (contract.h), and its text's first sentence. */
#define PR_SGET_OLDER_KIND "older_summary"
#define PR_SGET_OLDER_LEAD "The summary was written by an older profreport."
/* run's note of that kind: its text, or NULL for any other run. */
const char *pr_sget_older_note(const cJSON *run);

/* The name of the entry of `jobs` (summary["jobs"]) whose runs hold run
 * index i; "" when none does (a summary of one job).  O(runs). */
const char *pr_sget_job_of(const cJSON *jobs, size_t i);
/* That entry itself; NULL when none does. */
const cJSON *pr_sget_job_entry_of(const cJSON *jobs, size_t i);

/* Whether entry `job` of summary["jobs"] is torch.profiler's raw memory
 * timeline (export_memory_timeline_raw) shown on its own, not a job of
 * traces: its first run's input (of its worker and span) has the format
 * "memory_timeline", or the run holds a memory_timeline, or (an older
 * summary) its name ends " (memory timeline)". */
int pr_sget_job_is_memtl(const cJSON *summary, const cJSON *job);

/* How many entries of summary["jobs"] are memory timelines
 * (pr_sget_job_is_memtl). */
size_t pr_sget_memtl_jobs(const cJSON *summary);
/* The runs those entries hold: one per memory timeline file. */
size_t pr_sget_memtl_runs(const cJSON *summary);

/* What ties memory timeline entry `job` to a trace beside it: its
 * file's name begins with that trace's worker (trace_worker), as
 * torch.profiler's tutorial names both: "host_100's trace (rank 0)" (the
 * rank when that worker's run gives one) into buf; returns 1, or 0 with
 * buf "" when nothing does (or a summary older than the key). */
int pr_sget_memtl_tie(const cJSON *summary, const cJSON *job, char *buf,
                      size_t cap);

/* What one entry of summary["jobs"] holds, for a heading or a message:
 * "ranks 0-1 of 128", "rank 34 of 300", "3 ranks", "2 runs". */
void pr_sget_job_extent(const cJSON *job, char *buf, size_t n);

/* The one way to set o[key] = item, replacing any item of that key: 1
 * when o now owns item; 0 when out of memory (item NULL included), and
 * then item is still the caller's.  cJSON_ReplaceItemInObject (<= 1.7.15)
 * would drop the key of an item when copying it fails. */
int pr_sput(cJSON *o, const char *key, cJSON *item);
/* pr_sput of a copy of the string text; 0 when out of memory (o then
 * unchanged). */
int pr_sput_str(cJSON *o, const char *key, const char *text);

/* The decimals a share in percent is printed with ("%.*f%%") so that it
 * never rounds to 100% (or 0%) beside a part that is not: 0, or up to 4 near
 * either end (review 27 #4: inference_rank_1's 99.84% unrecorded read
 * "100% of it unrecorded" beside "covers only 0.2%"). */
static inline int
pr_pct_prec(double pct)
{
    double half = 0.5; /* half the last digit shown */
    int d = 0;

    while (d < 4 && ((pct > 0.0 && pct < half) ||
                     (pct < 100.0 && pct >= 100.0 - half))) {
        half /= 10.0;
        d++;
    }
    return d;
}

#endif
