/* critpath.h - what bounds each step (issue #31): a dependency graph of
 * the step built from the neutral model (host calls in thread order with
 * the host work between them, launch -> device task, stream order, syncs
 * and stream waits), replayed to reproduce the step, and its critical
 * path split by kind (host operator, data loader, launch, kernel by
 * family, copy, communication, sync wait, idle, another rank's time).  The
 * graph is built per step and dropped; it is linear in the step's events.
 * What-if replays of the same graph with a change applied (whatif.c) reuse it
 * through struct pr_cp_graph.
 *
 * Times are int64 ns inside, µs in the summary. */
#ifndef PROFREPORT_CRITPATH_H
#define PROFREPORT_CRITPATH_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/steps.h"
#include "profreport/trace.h"

/* What a piece of the critical path is (by_kind_us's keys, in order). */
enum pr_cp_kind {
    PR_CP_HOST_OP = 0, /* host work between calls, inside an operator or
                          outside any (Python) */
    PR_CP_DATALOADER,  /* host work inside the data loader's next() */
    PR_CP_LAUNCH,      /* runtime calls, and a launch's delay until its
                          task started on an idle stream */
    PR_CP_KERNEL,      /* device compute (split by family) */
    PR_CP_COPY,        /* copies and fills */
    PR_CP_COMM,        /* collectives */
    PR_CP_SYNC,        /* a host call's time blocked on the device
                          (cudaStreamSynchronize, aclrtSynchronizeStream,
                          a blocking copy): host time */
    PR_CP_IDLE,        /* device waited and nothing in the trace says why */
    PR_CP_COMPILE,     /* CANN's online operator compilation: the compile
                          calls (aclopCompileAndExecute, aclopCompile), and
                          the device's wait while the host compiled */
    PR_CP_PEER_WAIT,   /* another rank's time: the step up to where the
                          path enters from a peer, at an HCCL collective
                          whose replayed end is its measured one (it ended
                          when a peer's notify came, not when this rank's
                          work was done); this rank's work before it has
                          slack, so it is off the path (review 8 #3) */
    PR_CP_STREAM_WAIT, /* a device stream waiting for another stream of
                          the same device (cudaStreamWaitEvent's wait on
                          the device, an EVENT_WAIT task, a collective's
                          stream waiting for its input): device time, not
                          the host's (issue #29) */
    PR_CP_KIND_COUNT
};

/* Kernel families the path splits device compute into: the kernel
 * table's (kclass.h, data/kernels.json), and unknown where no rule of it
 * names the kernel, as the kernels table says. */
enum pr_cp_family {
    PR_CP_FAM_GEMM = 0,
    PR_CP_FAM_CONV,
    PR_CP_FAM_ATTENTION,
    PR_CP_FAM_COLLECTIVE,
    PR_CP_FAM_COPY,
    PR_CP_FAM_ELEMENTWISE,
    PR_CP_FAM_REDUCTION,
    PR_CP_FAM_NORM,
    PR_CP_FAM_EMBEDDING,
    PR_CP_FAM_OTHER,
    PR_CP_FAM_UNKNOWN,
    PR_CP_FAM_COUNT
};

/* Summary keys of a kind and of a family. */
const char *pr_cp_kind_key(enum pr_cp_kind k);
const char *pr_cp_family_key(enum pr_cp_family f);

/* 1 when a runtime call compiles an operator online: CANN's opCompile
 * step (AscendCL@opCompile, inside aclopCompileAndExecute) or
 * aclopCompile alone; else 0.  aclopCompileAndExecute itself is not: it
 * finds the compiled operator (a cache hit after the first call) and
 * runs it (review-5 finding 2). */
int pr_cp_is_compile(const char *call);
/* 1 when a runtime call runs an operator on CANN's aclop path
 * (aclopCompileAndExecute*, aclopExecute*), else 0. */
int pr_cp_is_aclop(const char *call);
/* The family of a device kernel by its name's words (PR_CP_FAM_UNKNOWN
 * when they say nothing): for kernels no rule of the kernel table
 * (kclass.h) names, where a change must guess (the what-if's tensor-core
 * targets); the path's split keeps them unknown. */
enum pr_cp_family pr_cp_family_of(const char *kernel_name);

#define PR_CP_NONE UINT32_MAX

/* Node types. */
enum pr_cp_ntype {
    PR_CP_N_START = 0, /* the step's start (fixed) */
    PR_CP_N_CARRY,     /* a stream busy with the previous step's work at
                          the step's start (fixed end) */
    PR_CP_N_HOST,      /* a host runtime call in its thread's order */
    PR_CP_N_SYNC,      /* a host call that waits for device work */
    PR_CP_N_TASK       /* a kernel, copy or fill on a stream */
};

#define PR_CP_MAX_PRED 3

/* A task on a free stream that starts this long after its launch call
 * returned did not wait for the launch: launch latency is microseconds
 * (HTA's trace_diff/control: median 2 us, p90 3 us), and by then the
 * host had moved on (critpath.c late_starts). */
#define PR_CP_LATE_START_NS 1000000

/* An edge weight that removes the edge from the replay (a what-if that
 * takes a dependency away). */
#define PR_CP_GONE (INT64_MIN / 4)

/* A piece of host work between two calls of a thread: the innermost
 * operator it ran in (or none: Python outside operators), the data
 * loader's next() when inside it. */
struct pr_cp_piece {
    int64_t ns;
    uint32_t name; /* string id; PR_STR_NONE: outside operators */
    uint8_t kind;  /* PR_CP_HOST_OP or PR_CP_DATALOADER */
};

/* One node of a step's graph.  Its replayed start is the latest of its
 * predecessors' points (end, or start for a launch edge) plus each
 * edge's weight, plus w; its end is start + dur (a sync: ready + dur, its
 * time after the work it waited for).  Measured values reproduce the
 * trace: w is what the predecessors do not explain. */
struct pr_cp_node {
    uint32_t ev;   /* event index; PR_CP_NONE for START/CARRY */
    uint32_t name; /* what the path shows for dur (string id) */
    uint8_t type;  /* enum pr_cp_ntype */
    uint8_t kind;  /* enum pr_cp_kind of dur */
    uint8_t fam;   /* enum pr_cp_family (kernels) */
    uint8_t n_pred;
    uint8_t w_kind;     /* kind of w (by the binding edge: launch, idle) */
    uint8_t on_path;    /* on the unchanged replay's chain of binding
                           edges back from the step's end (through a
                           peer-bound collective, on to this rank's work
                           before it: what the peer-wait figures and the
                           replays' evidence read) */
    uint8_t past_peer;  /* on that chain before the collective where the
                           path enters from another rank (floor): its
                           time is PR_CP_PEER_WAIT's, it has slack */
    uint8_t after_wait; /* tasks: its stream ran a wait task before it
                           (1; 2: a wait for peers, communication) */
    uint8_t w_coll;     /* tasks: w is a collective's own wait before it
                           starts, which its export records no tasks of
                           (an HCCL operator without its Notify Wait) */
    uint8_t peer;       /* tasks: its end waits for an untraced peer: an
                           HCCL collective whose own Notify Wait tasks
                           span most of it; it ends no earlier than
                           measured (e), nor than its own work
                           (dur - peer_wait) after its replayed start */
    uint8_t bind;       /* binding edge into the start (replay);
                           PR_CP_MAX_PRED: none */
    uint8_t bind_end;   /* binding edge into the end; PR_CP_MAX_PRED: the
                           node's own start */
    uint8_t floor;      /* peer: the replay's end is its measured end, later
                           than its own work allows (floor_ns later): the
                           peer set it */
    uint8_t queue_full; /* host: a launch call into a full launch queue,
                           blocked until a task ended (a sync since) */
    uint8_t wait_unrec; /* tasks: w is a stream wait on an event the trace
                           does not record (unrec_waits) */
    uint8_t polled;     /* host: the call after a wait the thread records
                           nothing of, spinning on a counter its last
                           launch's kernel writes (host_poll): edge 0 is
                           from that kernel's end */
    uint8_t late;       /* tasks: started PR_CP_LATE_START_NS or more after
                           its launch returned, on a stream with nothing
                           before it: w is idle, not launch delay (2: its
                           launch call followed a stream wait on an event
                           the step does not record; 3: a stream wait no
                           device record links to a stream); launch calls:
                           2 or 3 where they follow such a wait */
    uint32_t pred[PR_CP_MAX_PRED];
    int64_t pw[PR_CP_MAX_PRED];      /* edge weights (host gaps, offsets) */
    uint8_t p_start[PR_CP_MAX_PRED]; /* edge leaves the pred's start */
    uint8_t p_end[PR_CP_MAX_PRED];   /* edge enters this node's end (the
                                        work a blocking call waits for) */
    uint8_t p_kind[PR_CP_MAX_PRED];  /* kind of the edge's weight */
    uint32_t p_name[PR_CP_MAX_PRED]; /* what the weight is (an op) */
    int64_t s, e;                    /* measured */
    int64_t dur, w;               /* own time, unexplained wait before start */
    int64_t peer_wait;            /* peer: the part of dur in Notify Wait */
    int64_t floor_ns;             /* floor: its measured end less the end its
                                     own work gives (the slack of the work
                                     before it) */
    int64_t w_compile;            /* tasks: the part of an idle w that falls
                                     inside operator compilation calls */
    int64_t w_aclop;              /* tasks: the part of the rest that falls
                                     inside aclop execution calls */
    uint32_t name_aclop;          /* the first such call's name */
    int64_t dur_compile;          /* host: the part of dur in nested compile
                                     steps (opCompile inside an aclop call) */
    uint32_t name_compile;        /* their name */
    int64_t compile_s, compile_e; /* host: from the first such step's
                                     start to the last one's end */
    int64_t rs, re;               /* replayed */
    uint32_t corr_task;           /* host: the task it launched; PR_CP_NONE */
    uint32_t op_ev;               /* host calls and their tasks: the innermost
                                     operator open at the call (event index);
                                     PR_CP_NONE */
    uint32_t pc_first, pc_n;      /* host: pieces of the work before it (the
                                     weight of edge 0), in g->pc */

    /* peer: its Notify Wait before its first transfer between ranks
       (msprof-analyze's Synchronization; = peer_wait where the export
       records no ranks), and the rank whose notify came last in it
       (HCCL's dst rank; -1 not recorded) */
    int64_t peer_sync;
    int32_t peer_rank;
    /* tasks launched from a task queue (pr_queue_launch): when their
       operator enqueued them (its launch's start), which is what a
       blocking call on the operator's thread waits for; INT64_MIN none */
    int64_t enq_s;
};

/* A step's graph.  Each node is two points, its start (2i) and its
 * end (2i + 1); order holds the 2n points in a topological order. */
struct pr_cp_graph {
    struct pr_cp_node *v; /* owned, n */
    size_t n, cap;
    uint32_t *order; /* owned, 2n */
    int64_t ws, we;  /* the step's measured window */
    /* the end node: host threads' last calls with the host work after
     * them (end_pred / end_w), and every task */
    uint32_t *end_pred; /* owned, n_end */
    int64_t *end_w;
    uint32_t *end_pc_first, *end_pc_n; /* pieces of end_w, in pc */
    size_t n_end, cap_end;
    struct pr_cp_piece *pc; /* owned, n_pc */
    size_t n_pc, cap_pc;
    uint32_t end_bind; /* binding end predecessor (index in end_pred) */
    int64_t rend;      /* replayed end */
};

void pr_cp_graph_free(struct pr_cp_graph *g); /* accepts a zeroed one */

/* Replay g as it stands (after a change to durations or weights):
 * rs/re of every node, rend and the binding predecessors.  Cannot
 * fail. */
void pr_cp_replay(struct pr_cp_graph *g);

/* Of task n's launch wait on g's replay (n->w, w_kind PR_CP_LAUNCH), the
 * part before its launch call returned: the call's own host time, which
 * the path books by the call's name; the rest is the launch-to-start
 * delay.  0 where n waits on no launch call through its binding edge. */
int64_t pr_cp_call_own(const struct pr_cp_graph *g, const struct pr_cp_node *n);

struct pr_whatif_in; /* whatif.h */

/* Write run.critical_path (replacing a present key): per step its
 * length, bound, split by kind and family, top nodes and the replay's
 * error against the measured step, and replay_error_pct (the worst
 * step's); the what-if replays of the steps it reproduces (whatif.h; in
 * may be NULL).  max_error_pct, when not NULL, gets that worst error
 * (NaN without steps); unlinked_wait, when not NULL, 1 where its notes
 * (launch_wait_note, idle_note) name a stream-wait call that no device
 * record links to a stream as the likely cause of the wait (a ROCm
 * trace's hipStreamWaitEvent), else 0.  PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_critpath_fill(const struct pr_trace *t,
                                             const struct pr_steps *s,
                                             const struct pr_whatif_in *in,
                                             cJSON *run, double *max_error_pct,
                                             int *unlinked_wait,
                                             struct pr_error *err);

#endif
