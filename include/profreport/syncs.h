/* syncs.h - which host calls wait for a device, by name, in every
 * runtime's spelling (CUDA, HIP, CANN, MTIA), and which records are the
 * host's waits rather than a device's (issue #29).  hostdev.c measures
 * what they cost; other passes (the dependency graph) use the same
 * definitions.
 *
 * Names are matched without regard to case, so "synchronizeStream"
 * (MTIA's runtime) and "cudaStreamSynchronize" are one kind.  These are
 * pure functions of a name: they cannot fail and keep no state. */
#ifndef PROFREPORT_SYNCS_H
#define PROFREPORT_SYNCS_H

/* What a call or record does to the host.  Values are stable. */
enum pr_sync_kind {
    PR_SYNCK_NONE = 0,
    PR_SYNCK_DEVICE,      /* waits for every stream of a device
                            (cudaDeviceSynchronize, cuCtxSynchronize,
                            aclrtSynchronizeDevice, MTIA synchronize) */
    PR_SYNCK_STREAM,      /* waits for one stream (cudaStreamSynchronize,
                            aclrtSynchronizeStream, synchronizeStream) */
    PR_SYNCK_EVENT,       /* waits for an event (cudaEventSynchronize) */
    PR_SYNCK_COPY,        /* a copy call that returns when the copy is done
                            (cudaMemcpy, hipMemcpy, aclrtMemcpy) */
    PR_SYNCK_STREAM_WAIT, /* makes a stream wait for an event
                            (cudaStreamWaitEvent): the host does not wait */
    PR_SYNCK_ASYNC_COPY   /* an asynchronous copy call (cudaMemcpyAsync):
                            it blocks the host only when the host memory
                            is pageable, which its copy record tells */
};

/* The kind of a runtime or driver call named `name`; PR_SYNCK_NONE for a
 * call that does not wait (a launch, cudaEventQuery, cudaEventRecord) and
 * for NULL. */
enum pr_sync_kind pr_sync_call_kind(const char *name);

/* The kind of a host synchronisation record (Kineto's cuda_sync events,
 * an Nsight export's CUPTI sync rows: "Stream Sync", "Event Sync",
 * "Context Sync", "Stream Wait Event"); PR_SYNCK_NONE for NULL.  Device
 * commands such as MTIA's event_wait or Ascend's Notify Wait are not host
 * records: readers give them PR_KIND_DEVICE_SYNC and never ask. */
enum pr_sync_kind pr_sync_record_kind(const char *name);

/* The summary's word for a kind ("device", "stream", "event",
 * "blocking_copy", "stream_wait"); "" for the others. */
const char *pr_sync_kind_name(enum pr_sync_kind k);

/* Whether the host waits in a call of this kind (every kind but NONE,
 * STREAM_WAIT and ASYNC_COPY). */
int pr_sync_blocks_host(enum pr_sync_kind k);

#endif
