/* phases.h - what an Ascend producer computed itself and wrote as tables,
 * kept in its own words so that the report can show the producer's
 * figures under the producer's names:
 *
 *  - the step phases of torch_npu's step_trace_time.csv (Computing,
 *    Communication(Not Overlapped), Overlapped, Communication, Free,
 *    Stage, Bubble, Communication(Not Overlapped and Exclude Receive),
 *    Preparing) and of MindSpore's ascend_cluster_analyse_*.csv
 *    (computation_time, communication_alone_time, stage_time,
 *    receive_alone_time, collective_communication_alone_time);
 *  - the time split of each HCCL operation in communication.json
 *    (Elapse, Transit, Wait, Synchronization, Idle) with the bytes it
 *    moved, and of each step in MindSpore's hccl_raw_*.csv.
 *
 * A run folder that holds only these files (a rank of a job profiled
 * without its kernels) is read from them alone.  Owned by the trace
 * (pr_trace.phases). */
#ifndef PROFREPORT_PHASES_H
#define PROFREPORT_PHASES_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/trace.h"

/* A time the table does not give. */
#define PR_PHASE_UNKNOWN INT64_MIN

/* One step of the producer's breakdown of device time, in ns; every time
 * is PR_PHASE_UNKNOWN where the table has no such column. */
struct pr_phase_step {
    int64_t number;            /* the producer's step number; -1 none */
    int64_t computing_ns;      /* compute tasks' union (overlap included) */
    int64_t comm_alone_ns;     /* Communication(Not Overlapped) */
    int64_t overlapped_ns;     /* Overlapped: both at once */
    int64_t comm_ns;           /* Communication: the collectives' union */
    int64_t free_ns;           /* Free: neither */
    int64_t stage_ns;          /* Stage: the step less Bubble */
    int64_t bubble_ns;         /* Bubble: time in receives (pipeline) */
    int64_t comm_excl_recv_ns; /* Communication(Not Overlapped and
                                  Exclude Receive) */
    int64_t preparing_ns;      /* host step start to the first task */
};

/* One HCCL operation (communication.json) or one step's collectives
 * (MindSpore hccl_raw): where its time went, in ns, and what it moved. */
struct pr_comm_stat {
    uint32_t name;      /* "hcom_batchSendRecv__762_0_1" as keyed, without
                           the "@group"; "" for a step's total */
    uint32_t group;     /* the group's id as keyed ("@<hash>"); PR_STR_NONE */
    int64_t step;       /* the producer's step number; -1 none */
    int p2p;            /* listed under "p2p" (send, receive, batchSendRecv) */
    int32_t group_size; /* ranks of its group as the links show; -1 */
    int64_t start_ns;   /* PR_PHASE_UNKNOWN absent */
    int64_t elapse_ns;  /* first task to last: the operation's time */
    int64_t transit_ns; /* moving data */
    int64_t wait_ns;    /* in Notify Wait tasks: waiting for peers */
    int64_t sync_ns;    /* the wait before the first transfer: waiting
                           for the slowest peer to arrive */
    int64_t idle_ns;    /* Elapse - Transit - Wait */
    /* bytes over the on-chip/node copy engine (SDMA = HCCS + PCIE + SIO,
       as msprof sums them) and over RDMA; -1 absent.  Their sum is what
       the operation moved; the per-link entries are parts of SDMA and are
       not added again. */
    double sdma_bytes, rdma_bytes;
    double hccs_bytes, pcie_bytes, sio_bytes; /* the parts; -1 absent */
    /* each link type's own Transit Time, as its Bandwidth Info entry
       gives it (communication.json's "Transit Time(ms)",
       CommAnalyzerBandwidth's transit_time); PR_PHASE_UNKNOWN absent */
    int64_t sdma_ns, rdma_ns, hccs_ns, pcie_ns, sio_ns;
    /* MindSpore's hccl_raw: the link time of the entries whose bytes
       sdma_bytes and rdma_bytes hold, summed (its HcclParser's per-pair
       time, what its per-link bandwidth is over), which
       pr_comm_stat_rated_ns rates them over in place of transit_ns, the
       main stream's communication_cost that also holds a collective's
       in-card copies; PR_PHASE_UNKNOWN elsewhere */
    int64_t pair_ns;
};

/* One memory component as torch_npu's memory_record.csv samples its
 * totals (PTA: PyTorch's caching allocator, GE: CANN's graph engine,
 * PTA+GE, APP: the whole process on the device, as MindStudio Insight
 * draws them): how many samples and the largest of each total, in
 * bytes, -1 where no sample gives it. */
struct pr_mem_component {
    char name[16];  /* "APP" */
    int64_t device; /* "NPU:0" -> 0 */
    size_t samples;
    double peak_allocated, peak_reserved;
    /* when the allocated total (else, without one, the reserved) first
       reached its peak; -1 not known (a time in E-notation, a table
       that keeps no time) */
    int64_t peak_ns;
};

/* One step of MindSpore's step trace (step_trace_raw_*_detail_time.csv)
 * as MindInsight splits it, in ns: iteration_interval (the previous
 * step's end to FP start: data and host work), fp_and_bp (FP start to BP
 * end), tail (BP end to the step's end: gradient all-reduce, optimizer);
 * start, BP end and end on the trace's clock.  PR_PHASE_UNKNOWN where the
 * file lacks the column. */
struct pr_ms_split {
    int64_t number;
    int64_t start_ns, bp_ns, end_ns;
    int64_t interval_ns, fpbp_ns, tail_ns;
};

struct pr_phases {
    struct pr_ms_split *split; /* owned, in file order */
    size_t n_split, cap_split;
    struct pr_phase_step *steps; /* owned, in file order */
    size_t n_steps, cap_steps;
    struct pr_comm_stat *comm; /* owned, in file order */
    size_t n_comm, cap_comm;
    const char *steps_source; /* static: "step_trace_time.csv", ... */
    /* Leading steps the producer's own mean leaves out: MindSpore's
     * cluster analysis appends the average of steps 2..n (step 1 holds
     * the pipeline's warm-up); 0 for the others. */
    size_t mean_skip;
    /* The job's parallel mode and pipeline stages as MindSpore's cluster
     * file names state them (ascend_cluster_analyse_{mode}_{stages}_
     * {ranks}_{rank}.csv: "pipeline-parallel", 2); "" and 0 absent. */
    char parallel_mode[24];
    int64_t stage_count;
    const char *comm_source;      /* static: "communication.json", ... */
    struct pr_mem_component *mem; /* owned, by first appearance */
    /* static: where the components were read ("MEMORY_RECORD, NPU_MEM",
       "NPU_OP_MEM"); NULL: memory_record.csv */
    const char *mem_source;
    size_t n_mem, cap_mem;
    /* static: the allocator whose totals the memory records carry, the
       curve's ("PTA": PyTorch's caching allocator, "GE": CANN's graph
       engine); NULL where the producer names none */
    const char *mem_curve;
};

/* Append a step to t->phases (created on first use), its times
 * PR_PHASE_UNKNOWN and number -1.  NULL on out-of-memory.  Valid until
 * the next append. */
struct pr_phase_step *pr_phases_add_step(struct pr_trace *t);

/* Append a step trace row to t->phases (created on first use), its
 * times PR_PHASE_UNKNOWN.  NULL on out-of-memory. */
struct pr_ms_split *pr_phases_add_split(struct pr_trace *t);

/* Append an operation, times PR_PHASE_UNKNOWN, bytes -1, strings
 * PR_STR_NONE, step -1.  NULL on out-of-memory. */
struct pr_comm_stat *pr_phases_add_comm(struct pr_trace *t);

/* The bytes an operation moved (SDMA + RDMA, or the link parts where
 * the producer wrote no SDMA entry); -1 when it names none. */
double pr_comm_stat_bytes(const struct pr_comm_stat *c);

/* An operation that moved fewer bytes than this (pr_comm_stat_bytes) is
 * not rated: its time is latency, not bandwidth (the size comm.c's
 * size_note calls bandwidth-bound on any link; issue #30: old2023's
 * 4-byte all_reduce read 0.0036 GB/s). */
#define PR_COMM_RATE_MIN_BYTES 1048576.0

/* Why pr_comm_stat_rated_ns left an operation unrated. */
enum pr_comm_unrated {
    PR_COMM_RATED = 0,
    PR_COMM_TRANSIT_ZERO, /* its op-level Transit Time is 0 */
    PR_COMM_SMALL,        /* under PR_COMM_RATE_MIN_BYTES */
    PR_COMM_OVER_ELAPSE   /* a Transit Time longer than its Elapse */
};

/* The time an operation's bytes (pr_comm_stat_bytes) are rated over: its
 * pair_ns where known (hccl_raw), else its op-level Transit Time, when above 0,
 * no longer than its Elapse, and its bytes (where known) PR_COMM_RATE_MIN_BYTES
 * or more (checked first); else -1, with why in *why (PR_COMM_RATED when
 * rated).  Never its link types' Transit Time (issue #30: old2023's
 * hcom_allReduce__483_2, op-level Transit 0, gives HCCS 7.65 ms for 7 transfers
 * side by side in a 2.09 ms operation): that is pr_comm_stat_link's per-link
 * figure.  PR_PHASE_UNKNOWN when the operation gives no Transit Time. */
int64_t pr_comm_stat_rated_ns(const struct pr_comm_stat *c, int *why);

/* Where an operation's op-level Transit Time is 0 while one link type
 * carried its bytes: that type's name ("HCCS", "PCIE", "SIO", "SDMA" when
 * its parts are not told apart, "RDMA"), its bytes and its Transit Time,
 * from which msprof's own per-link Bandwidth(GB/s) is their ratio; 1 then,
 * else 0 (more than one type, no time above 0, or under
 * PR_COMM_RATE_MIN_BYTES). */
int pr_comm_stat_link(const struct pr_comm_stat *c, const char **type,
                      double *bytes, int64_t *ns);

/* The component `name` of `device`, added (samples 0, peaks -1) when it
 * is new; NULL on out-of-memory or past 64 components. */
struct pr_mem_component *pr_phases_mem(struct pr_trace *t, const char *name,
                                       int64_t device);

/* Whether the producer's step table counts computation in some step
 * (MindSpore's computation_time, msprof-analyze's Computing; without
 * such a column, the step trace's FP+BP): 0 without a table. */
int pr_phases_computes(const struct pr_trace *t);

/* t->phases, created on first use; NULL on out-of-memory. */
struct pr_phases *pr_phases_of(struct pr_trace *t);

/* Accepts NULL. */
void pr_phases_free(struct pr_phases *p);

#endif
