/* producer.h - the figures an Ascend producer computed itself (phases.h)
 * in the summary, under the producer's own names: torch_npu's and
 * MindStudio Insight's step phases (Computing, Communication(Not
 * Overlapped), Overlapped, Free, Stage, Bubble, Preparing) and the time
 * split of HCCL's operations (Transit, Wait, Synchronization, Idle) as
 * communication.json states them, summed per operation type and group.
 * A rank whose files hold no task takes its step breakdown from them. */
#ifndef PROFREPORT_PRODUCER_H
#define PROFREPORT_PRODUCER_H

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/steps.h"
#include "profreport/trace.h"

/* A run with the producer's step phases and no device task at all (a
 * rank folder of only step_trace_time.csv and communication.json): each
 * step's breakdown and computation / communication split become the
 * phases of the step of the same number (kernel = Computing,
 * communication = Communication(Not Overlapped), other = the rest;
 * overlap = Overlapped).  Otherwise nothing changes.  Cannot fail. */
void pr_producer_steps(const struct pr_trace *t, struct pr_steps *s);
/* MindSpore's step trace: each step's iteration interval, of the time
 * its breakdown left "other", as the dataloader category ("Step
 * interval" in a MindSpore report). */
void pr_producer_step_interval(const struct pr_trace *t, struct pr_steps *s);

/* Whether the run has device work besides its collectives: a device
 * task that is no collective, a copy or a fill. */
int pr_producer_has_tasks(const struct pr_trace *t);

/* The collective of an HCCL operation name or type in pr_comm's words:
 * "hcom_allReduce__586_0_1" and "hcom_allReduce_" -> "all_reduce",
 * "hcom_batchSendRecv_" -> "send_recv", "hcom_receive_" -> "recv";
 * NULL when unknown.  Static result. */
const char *pr_producer_collective(const char *name);

/* The communication advice of an Ascend run, into text (cap bytes): the
 * share of the step in HCCL time alone (0..1); with the producer's split
 * (run["hccl"]) where HCCL's time goes per step (Transit, Wait,
 * Synchronization, Idle) and what that says: waiting for a slower peer,
 * or transfer; without it, the largest collective of the step (calls,
 * bytes, bus bandwidth, how much computation overlapped it) and how to
 * overlap it in the run's framework's words (run["framework"]).  0 (text
 * untouched) when the run has neither. */
/* What a pipeline stage's own table says bounds the rank, where the
 * producer wrote one (MindSpore's ascend_cluster_analyse: computation_time,
 * receive_alone_time), as one sentence (with a leading space) into text:
 * the faster stage waits alone in Receive for the slower one (a bubble),
 * or the rank computes for most of its step although its trace holds no
 * compute tasks.  PR_PIPE_BUBBLE or PR_PIPE_SLOW_STAGE, which it says;
 * 0 (text untouched) when the run has no such table or it says neither. */
enum { PR_PIPE_BUBBLE = 1, PR_PIPE_SLOW_STAGE = 2 };
int pr_producer_pipeline_note(const cJSON *run, char *text, size_t cap);

int pr_producer_comm_advice(const cJSON *run, double share, char *text,
                            size_t cap);

/* Where the run's collectives wait for another rank on its critical
 * path (critical_path.peer_wait_note, known after the recommendations are
 * made, so whatif.c asks): the same advice read as the timeline reads
 * it, into text: the share, and the producer's split with its Idle (or
 * Wait) named as that wait (wait_ms: the path's peer wait a step), or the
 * largest collective's calls, time and bytes; no bandwidth figure and no
 * lever, since both would read a wait as transfer (review 8 #1, #6).
 * 0 (text untouched) when the run has no share or no collective. */
int pr_producer_comm_peer(const cJSON *run, double wait_ms, char *text,
                          size_t cap);

/* The levers on the collectives themselves in the run's framework's
 * words, as a noun phrase ("gradients reduced in buckets while backward
 * runs (DDP's bucket_cap_mb) and fewer bytes (bf16 gradients)").
 * Static result. */
const char *pr_producer_comm_levers(const cJSON *run);

/* Where the producer's split says most of HCCL's time is Wait (a late
 * peer): that Wait, every operation's, in us a step, with the operation
 * that waits longest (*name, borrowed from run; *top_us its wait a
 * step); NaN (*name NULL, *top_us NaN) otherwise. */
double pr_producer_comm_wait(const cJSON *run, const char **name,
                             double *top_us);

/* The run's point-to-point HCCL operations (communication.json's kind
 * p2p), summed a step: Wait, Idle and Transit (p[0..2]), and all its
 * operations' Elapse (p[3]), in us; *name the p2p operation that waits
 * longest (borrowed from run).  1 where those operations' Wait and Idle
 * are half of all HCCL's Elapse or more: the communication is mostly a
 * pipeline stage waiting for its peer stage (issue #30, CANN 8.3 4-rank
 * PP2 DP2 job rank 0: 313.9 of 420.2 ms is hcom_batchSendRecv_, Wait
 * 158.5, Idle 155.4, Transit 0), which neither the overlap replay nor
 * buckets overlapped with backward shorten. */
int pr_producer_p2p_waits(const cJSON *run, double p[4], const char **name);

/* The verdict's words for the peer such a rank waits for, until the job's
 * stages name it (stages.c puts the slower stage's ranks in their place,
 * where the job's ranks show the stages unbalanced). */
#define PR_PEER_STAGE_HEDGE "(in a pipeline, the other stage)"

/* The communication finding's words for the same, where its accumulation
 * sentence says why accumulation would not help (whatif.c); stages.c
 * takes them out where it names the stage. */
#define PR_P2P_STAGE_HEDGE                                                     \
    " (in a pipeline, a slower stage is the first thing to rule out)"

/* The producer's split of HCCL's time a step (run["hccl"]), in ms:
 * t[0..4] Elapse, Transit, Wait, Synchronization, Idle; 1, or 0 (t
 * zeros) when the run has none. */
int pr_producer_comm_split(const cJSON *run, double t[5]);

/* 1 when the run holds torch_npu's step table, its steps the table's,
 * and no kernel row (run["kernels"] empty: a rank folder of
 * step_trace_time.csv and communication.json, or the CSV alone:
 * pr_producer_steps); 0 otherwise. */
int pr_producer_table_only(const cJSON *run);

/* The run's HCCL operation that waits longest (hccl.ops[], the row
 * pr_producer_comm_wait names; borrowed from run), NULL without one. */
const cJSON *pr_producer_comm_top(const cJSON *run);

/* The same reading's Synchronization (the Wait before each operation's
 * first transfer, msprof-analyze's slow-rank figure), in us a step; NaN
 * where pr_producer_comm_wait is. */
double pr_producer_comm_sync(const cJSON *run);

/* Set run["step_phases"] and run["hccl"] (null when the trace has none;
 * docs/summary-json.md).  PR_E_NOMEM short of memory. */
PR_NODISCARD enum pr_status pr_producer_fill(const struct pr_trace *t,
                                             cJSON *run, struct pr_error *err);

/* Where the run has no task and its producer's step table records far
 * more than its steps last (comp + communication alone over twice the
 * median step: a table that is not these steps', which
 * pr_producer_steps therefore does not apply): a data-quality sentence
 * into text and 1; 0 (text untouched) otherwise. */
int pr_producer_table_note(const struct pr_trace *t, const cJSON *run,
                           char *text, size_t cap);

/* Where the run has torch_npu's step table (step_trace_time.csv or its
 * analysis.db twin) and its device tasks' busy time a step is under half
 * the table's (Computing + Communication(Not Overlapped)): a data-quality
 * sentence into text (cap bytes) naming both, and 1.  *tasks is the
 * trace's device task count either way.  0 (text untouched) otherwise. */
int pr_producer_task_note(const struct pr_trace *t, const cJSON *run,
                          char *text, size_t cap, size_t *tasks);

/* 1 where pr_producer_task_note finds the task list incomplete (its
 * tasks under half the step table's device time a step; a run of the
 * table alone is not): the analysis then treats the tasks as an
 * extract's, with no critical path and no utilization or idle (review23a
 * #3).  0 otherwise. */
int pr_producer_tasks_partial(const cJSON *run);

/* Where pr_producer_task_note finds the task list incomplete: a clause
 * into text (cap bytes) saying the device's gaps between the export's
 * tasks are where its task list holds none, with the step table's own
 * figures a step (Communication(Not Overlapped), Free), and 1; 0 (text
 * untouched) otherwise.  The critical path's idle note ends with it
 * instead of the producer's Free (review 11 #2: torch_npu old2023's 184
 * ms gap is mostly the allreduce its 21 tasks leave out). */
int pr_producer_gap_note(const cJSON *run, char *text, size_t cap);

/* Where pr_producer_task_note finds the task list incomplete: the step
 * table's Communication(Not Overlapped) share of its step (0..1), the
 * communication finding's basis instead of the tasks' breakdown (issue
 * #30 finding 1: torch_npu old2023's 21 tasks hold 3.5% of communication,
 * its table 50.3%); NaN otherwise. */
double pr_producer_table_comm_share(const cJSON *run);

/* Where pr_producer_task_note finds the task list incomplete: the run's
 * verdict (text, bound, bound_steps, basis) from the step table instead
 * of the critical path: the largest of Computing ("device"),
 * Communication(Not Overlapped) ("communication") and Free ("idle"), as
 * MindStudio Insight splits the step, into the verdict being made
 * (whatif.h).  Otherwise nothing changes. */
struct pr_verdict;
void pr_producer_verdict(const struct pr_trace *t, const cJSON *run,
                         struct pr_verdict *v);

/* run["step_trace"]: MindSpore's own split of each step of `s` from its
 * step trace (step_trace_raw_*_detail_time.csv: iteration_interval,
 * fp_and_bp, tail), with the device's busy time inside FP+BP and inside
 * the tail; null without a step trace.  PR_E_NOMEM short of memory. */
PR_NODISCARD enum pr_status pr_producer_split(const struct pr_trace *t,
                                              const struct pr_steps *s,
                                              cJSON *run, struct pr_error *err);

/* The verdict's text with what run["step_trace"] says: where the tasks
 * leave 10% of the median step or more idle inside FP+BP and the tail,
 * how much of each; without tasks, the split itself.  Otherwise nothing
 * changes. */
void pr_producer_split_verdict(const cJSON *run, struct pr_verdict *v);

/* A run without steps bound by communication where one collective at the
 * capture's start takes most of it (PR_STARTUP_* below): the verdict
 * names it as a one-time start-up wait for the peers and splits the rest
 * of the path without it.  Otherwise nothing changes. */
void pr_producer_startup_verdict(const struct pr_trace *t, const cJSON *run,
                                 struct pr_verdict *v);

/* A run without steps' start-up collective, by the trace alone (the
 * verdict above adds the path's conditions): its name (t's string), its
 * time and start from the capture's start in us, and its time no compute
 * or copy task overlaps.  1 when there is one; 0 and *out zeroed when
 * not.  The communication finding leaves it out of its share
 * (review 22a #4). */
struct pr_startup_coll {
    const char *name;
    double dur_us, at_us, alone_us;
    size_t ev; /* its index in t->events */
};
int pr_producer_startup_coll(const struct pr_trace *t, const cJSON *run,
                             struct pr_startup_coll *out);

#endif
