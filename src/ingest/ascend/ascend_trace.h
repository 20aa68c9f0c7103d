/* ascend_trace.h - reading trace_view.json in two passes, shared by the
 * lone-file format (ascend_trace.c) and the folder format (ascend.c): the
 * first pass keeps every event as a plain record (pr_tv_read), the second
 * gives the records their meaning once the process names are known and
 * fills the trace (pr_tv_build, ascend_trace_map.c).  Only src/ingest
 * includes this header. */
#ifndef PROFREPORT_INGEST_ASCEND_TRACE_H
#define PROFREPORT_INGEST_ASCEND_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/error.h"
#include "profreport/trace.h"

/* One X event as written; string ids in tv->t's table. */
struct pr_tv_raw {
    int64_t ts_ns, dur_ns;
    uint64_t offset;    /* first byte in the file, for messages */
    uint32_t order;     /* index in the array */
    uint32_t name, cat; /* cat PR_STR_NONE when absent */
    uint32_t pid, tid;
    /* args */
    uint32_t task_type; /* "Task Type" / HCCL "task type"; PR_STR_NONE */
    int64_t task_id, stream, conn_id; /* -1 absent */
    uint32_t dims, types;             /* Input Dims / Input type text */
    uint32_t stack;                   /* "Call stack" (with_stack=True): frames
                                         "file.py(line): func", each ended by ";\r\n";
                                         PR_STR_NONE */
    int64_t seq, fwd_tid, py_id, py_parent;
    int64_t py_module;          /* "Python module id" of an nn.Module's
                                   range (with_modules); -1 absent */
    uint32_t data_type;         /* HCCL data_type ("FP32") */
    int64_t count;              /* HCCL count (elements) */
    int64_t size_bytes;         /* HCCL plane task size(Byte) */
    int64_t data_bytes;         /* an RTS copy task's "data size(Byte)";
                                   -1 absent */
    uint32_t copy_dir;          /* its "memcpy direction" ("host to
                                   device"); PR_STR_NONE */
    int64_t src_rank, dst_rank; /* HCCL plane task "src rank", "dst rank"
                                   (in its group); -1 absent */
    uint32_t transport, link;   /* "transport type" (SDMA, RDMA, LOCAL),
                                   "link type" (HCCS, PCIE, ON_CHIP) */
    int64_t queue_corr;         /* "correlation_id" of a task-queue
                                   Enqueue / Dequeue@<op> range; -1 */
    /* filled by pr_tv_build */
    int64_t corr; /* the async_npu flow that launched it; -1 none */
};

enum { PR_TV_PROCESS, PR_TV_THREAD, PR_TV_LABEL };

/* process_name, thread_name and process_labels metadata. */
struct pr_tv_name {
    int kind; /* PR_TV_PROCESS, ... */
    uint32_t pid, tid, text;
};

enum { PR_TV_FLOW_NPU, PR_TV_FLOW_H2D, PR_TV_FLOW_FWDBWD };

/* One end of a flow. */
struct pr_tv_flow {
    int64_t id, ts_ns;
    uint32_t pid, tid;
    char ph;     /* 's' or 'f' */
    uint8_t cat; /* PR_TV_FLOW_* */
    uint8_t matched;
};

struct pr_tv {
    struct pr_trace *t;    /* owned by the caller: the trace being built */
    struct pr_tv_raw *raw; /* owned */
    size_t n_raw, cap_raw;
    struct pr_tv_name *names; /* owned */
    size_t n_names, cap_names;
    struct pr_tv_flow *flows; /* owned */
    size_t n_flows, cap_flows;
    int64_t device;   /* the NPU's id: a label's, a packed pid's or 0 (filled
                         by build) */
    int device_known; /* a label or the pids said it */
};

/* Pass one: read `path` (at most `max` bytes) into tv, whose `t` the
 * caller has created.  Errors carry "byte N: ..." without the path. */
PR_NODISCARD enum pr_status pr_tv_read(const char *path, uint64_t max,
                                       struct pr_tv *tv, struct pr_error *err);

/* Pass two: the records as events of tv->t, with their side records,
 * links from tasks to operators, fwdbwd flows, the device, vendor and
 * kind.  PR_E_NOT_FORMAT when no process of the file is an Ascend one. */
PR_NODISCARD enum pr_status pr_tv_build(struct pr_tv *tv, struct pr_error *err);

void pr_tv_free(struct pr_tv *tv); /* the records; not tv->t */

/* The HostToDevice flows of a timeline (torch_npu's trace_view.json,
 * CANN >= 7's msprof_*.json): each task's flow end, found by its
 * process, stream and start, and the flow's start (the launching host
 * thread and instant), found by the flow's id. */
struct pr_tv_h2d {
    struct pr_tv_flow **ends;   /* owned array; 'f' ends by (pid, tid, ts) */
    struct pr_tv_flow **starts; /* owned array; 's' starts by id */
    size_t n_ends, n_starts;
};

PR_NODISCARD enum pr_status pr_tv_h2d_index(const struct pr_tv *tv,
                                            struct pr_tv_h2d *h);

/* The start of the HostToDevice flow that ends on task x; NULL when
 * none. */
struct pr_tv_flow *pr_tv_h2d_start(const struct pr_tv_h2d *h,
                                   const struct pr_tv_raw *x);

void pr_tv_h2d_free(struct pr_tv_h2d *h);

#endif
