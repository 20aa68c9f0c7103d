/* record.h - captured GPU activity in neutral form, and the writer that turns
 * it into a Kineto / PyTorch-profiler trace (spec/flops-and-formats.md §2).
 *
 * The CUPTI collector (src/record/collector.c) translates CUPTI records into
 * these structs (src/record/cupti_map.c) and appends them to a session; at
 * exit it calls pr_record_write().  Nothing here needs CUDA, so the
 * conversion is unit-tested with synthesized records.
 *
 * Ownership: a session owns copies of every string it is given
 * (pr_record_session_add copies them); the records handed in are borrowed
 * for the duration of the call only.  Times are int64 nanoseconds on the
 * CUPTI clock. */
#ifndef PROFREPORT_RECORD_H
#define PROFREPORT_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profreport/buf.h"
#include "profreport/error.h"

enum pr_rec_kind {
    PR_REC_NONE = 0,
    PR_REC_KERNEL,
    PR_REC_MEMCPY,
    PR_REC_MEMSET,
    PR_REC_RUNTIME,     /* CUDA runtime API call */
    PR_REC_DRIVER,      /* CUDA driver API call */
    PR_REC_SYNC,        /* synchronization (event, stream, context) */
    PR_REC_RANGE_START, /* NVTX range start (push / rangeStart) */
    PR_REC_RANGE_END,   /* NVTX range end, matched to its start by `id` */
    PR_REC_MARKER,      /* NVTX instantaneous marker */
    PR_REC_ALLOC,       /* device or pinned memory allocated */
    PR_REC_FREE         /* ... released */
};

/* Memory kinds, numbered as CUPTI's CUpti_ActivityMemoryKind. */
enum pr_rec_mem {
    PR_MEM_UNKNOWN = 0,
    PR_MEM_PAGEABLE = 1,
    PR_MEM_PINNED = 2,
    PR_MEM_DEVICE = 3,
    PR_MEM_ARRAY = 4,
    PR_MEM_MANAGED = 5,
    PR_MEM_DEVICE_STATIC = 6,
    PR_MEM_MANAGED_STATIC = 7
};

/* Copy kinds, numbered as CUPTI's CUpti_ActivityMemcpyKind. */
enum pr_rec_copy {
    PR_COPY_UNKNOWN = 0,
    PR_COPY_HTOD = 1,
    PR_COPY_DTOH = 2,
    PR_COPY_HTOA = 3,
    PR_COPY_ATOH = 4,
    PR_COPY_ATOA = 5,
    PR_COPY_ATOD = 6,
    PR_COPY_DTOA = 7,
    PR_COPY_DTOD = 8,
    PR_COPY_HTOH = 9,
    PR_COPY_PTOP = 10
};

/* Synchronization kinds, numbered as CUPTI's. */
enum pr_rec_sync {
    PR_SYNC_UNKNOWN = 0,
    PR_SYNC_EVENT = 1,
    PR_SYNC_STREAM_WAIT_EVENT = 2,
    PR_SYNC_STREAM = 3,
    PR_SYNC_CONTEXT = 4
};

/* One captured activity.  Which fields are meaningful depends on kind; the
 * rest are zero.  `name` is borrowed (copied by pr_record_session_add). */
struct pr_rec {
    enum pr_rec_kind kind;
    int64_t start_ns; /* timestamp for instants (marker, alloc, free) */
    int64_t end_ns;
    const char *name;     /* kernel (demangled), API function, NVTX text */
    uint32_t correlation; /* 0 = none */
    uint32_t pid, tid;    /* host side: API calls, NVTX, memory */
    uint32_t device, context, stream;
    uint32_t id;   /* NVTX range id; sync: CUDA event id */
    uint32_t cbid; /* API callback id */
    /* kernels */
    int32_t grid[3], block[3];
    int32_t regs_per_thread;
    int32_t static_smem, dynamic_smem;
    int smem_optin;
    int64_t queued_ns; /* 0 = unknown */
    /* memcpy / memset / memory */
    uint64_t bytes;
    uint64_t address;
    int copy_kind;          /* enum pr_rec_copy */
    int src_kind, dst_kind; /* enum pr_rec_mem; memset / memory use src */
    uint32_t src_device, dst_device; /* peer copies (PR_COPY_PTOP) */
    int sync_kind;                   /* enum pr_rec_sync */
};

/* Device properties, as the driver reports them (deviceProperties). */
struct pr_record_device {
    int id;
    char name[256];
    int64_t total_global_mem;
    int cc_major, cc_minor;
    int max_threads_per_block, max_threads_per_sm;
    int regs_per_block, regs_per_sm;
    int warp_size;
    int64_t smem_per_block, smem_per_sm, smem_per_block_optin;
    int64_t reserved_smem_per_block;
    int num_sms;
};

struct pr_record_session;

/* A new empty session that keeps at most `max_records` activities (0 = a
 * default of 16 million); further ones are counted as dropped.  NULL when
 * memory runs out. */
struct pr_record_session *pr_record_session_new(size_t max_records);
void pr_record_session_free(struct pr_record_session *s); /* accepts NULL */
/* Forget every record, keep devices and memory (a forked child starts over). */
void pr_record_session_clear(struct pr_record_session *s);

/* Append a copy of `r`.  PR_E_LIMIT when the session is full (the record is
 * counted as dropped), PR_E_NOMEM when memory runs out. */
PR_NODISCARD enum pr_status pr_record_session_add(struct pr_record_session *s,
                                                  const struct pr_rec *r,
                                                  struct pr_error *err);
/* Set the properties of device d->id (replacing earlier ones). */
PR_NODISCARD enum pr_status
pr_record_session_add_device(struct pr_record_session *s,
                             const struct pr_record_device *d,
                             struct pr_error *err);
/* Count records lost elsewhere (CUPTI's own drops, full buffers). */
void pr_record_session_dropped(struct pr_record_session *s, uint64_t n);
size_t pr_record_session_count(const struct pr_record_session *s);

/* What the file says about the process. */
struct pr_record_meta {
    uint32_t pid;
    const char *process_name; /* borrowed; NULL = "process <pid>" */
    const char *trace_name;   /* borrowed; written as traceName; may be NULL */
};

/* Write the session as a Kineto trace: deviceProperties, NVTX ranges as
 * cpu_op (torch emit_nvtx ranges, with Input Dims and Sequence number) or
 * user_annotation, runtime / driver calls with External id and ac2g flows,
 * kernels with occupancy args, copies, memsets, cuda_sync and [memory]
 * events.  Exactly one of fp / mem is non-NULL: text goes to the stream or
 * is appended to the buffer.  PR_E_IO on a write error, PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_record_write(const struct pr_record_session *s,
                                            const struct pr_record_meta *meta,
                                            FILE *fp, struct pr_buf *mem,
                                            struct pr_error *err);

/* An emit_nvtx range name, parsed: "aten::addmm, seq = 12, op_id = 7,
 * sizes = [[64, 512], [512, 1000]], input_op_ids = [(5,0)]". */
struct pr_nvtx_op {
    size_t name_len;   /* op name = first name_len bytes of the text */
    int64_t seq;       /* -1 when absent */
    const char *sizes; /* borrowed "[[...]]" text inside the input, or
                          NULL; sizes_len bytes */
    size_t sizes_len;
};

/* Parse an NVTX range name.  Returns 1 when it is a PyTorch operator range
 * (emit_nvtx fields present, or a bare "ns::op" name), 0 for any other
 * annotation. */
int pr_record_parse_nvtx(const char *text, struct pr_nvtx_op *out);

#endif
