/* cupti_map.c - translate CUPTI activity records (the CUDA 13 struct
 * versions: Kernel10, Memcpy6, MemcpyPtoP4, Memset4, API, Synchronization2,
 * Marker2, Memory4) into neutral pr_rec records.  Pure field copying, no
 * CUPTI calls: API names and demangling are the collector's job, so the
 * unit test feeds synthesized structs without a GPU or libcupti. */
#include "config.h"

#include <string.h>

#include <cupti.h>

#include "internal.h"
#include "profreport/record.h"

static void
map_kernel(const CUpti_ActivityKernel10 *k, struct pr_rec *r)
{
    r->kind = PR_REC_KERNEL;
    r->start_ns = (int64_t)k->start;
    r->end_ns = (int64_t)k->end;
    r->name = k->name;
    r->correlation = k->correlationId;
    r->device = k->deviceId;
    r->context = k->contextId;
    r->stream = k->streamId;
    r->grid[0] = k->gridX;
    r->grid[1] = k->gridY;
    r->grid[2] = k->gridZ;
    r->block[0] = k->blockX;
    r->block[1] = k->blockY;
    r->block[2] = k->blockZ;
    r->regs_per_thread = k->registersPerThread;
    r->static_smem = k->staticSharedMemory;
    r->dynamic_smem = k->dynamicSharedMemory;
    r->smem_optin = k->shmemLimitConfig == CUPTI_FUNC_SHMEM_LIMIT_OPTIN;
    if (k->queued != CUPTI_TIMESTAMP_UNKNOWN)
        r->queued_ns = (int64_t)k->queued;
}

static void
map_memcpy(const CUpti_ActivityMemcpy6 *m, struct pr_rec *r)
{
    r->kind = PR_REC_MEMCPY;
    r->start_ns = (int64_t)m->start;
    r->end_ns = (int64_t)m->end;
    r->correlation = m->correlationId;
    r->device = m->deviceId;
    r->context = m->contextId;
    r->stream = m->streamId;
    r->bytes = m->bytes;
    r->copy_kind = m->copyKind;
    r->src_kind = m->srcKind;
    r->dst_kind = m->dstKind;
}

static void
map_peer(const CUpti_ActivityMemcpyPtoP4 *m, struct pr_rec *r)
{
    r->kind = PR_REC_MEMCPY;
    r->start_ns = (int64_t)m->start;
    r->end_ns = (int64_t)m->end;
    r->correlation = m->correlationId;
    r->device = m->deviceId;
    r->context = m->contextId;
    r->stream = m->streamId;
    r->bytes = m->bytes;
    r->copy_kind = m->copyKind;
    r->src_kind = m->srcKind;
    r->dst_kind = m->dstKind;
    r->src_device = m->srcDeviceId;
    r->dst_device = m->dstDeviceId;
}

static void
map_memset(const CUpti_ActivityMemset4 *m, struct pr_rec *r)
{
    r->kind = PR_REC_MEMSET;
    r->start_ns = (int64_t)m->start;
    r->end_ns = (int64_t)m->end;
    r->correlation = m->correlationId;
    r->device = m->deviceId;
    r->context = m->contextId;
    r->stream = m->streamId;
    r->bytes = m->bytes;
    r->src_kind = m->memoryKind;
}

static void
map_api(const CUpti_ActivityAPI *a, struct pr_rec *r)
{
    r->kind =
        a->kind == CUPTI_ACTIVITY_KIND_RUNTIME ? PR_REC_RUNTIME : PR_REC_DRIVER;
    r->start_ns = (int64_t)a->start;
    r->end_ns = (int64_t)a->end;
    r->pid = a->processId;
    r->tid = a->threadId;
    r->correlation = a->correlationId;
    r->cbid = (uint32_t)a->cbid;
}

static void
map_sync(const CUpti_ActivitySynchronization2 *s, struct pr_rec *r)
{
    r->kind = PR_REC_SYNC;
    r->start_ns = (int64_t)s->start;
    r->end_ns = (int64_t)s->end;
    r->correlation = s->correlationId;
    r->context = s->contextId;
    r->stream = s->streamId;
    r->id = s->cudaEventId;
    r->sync_kind = (int)s->type;
}

/* NVTX: push/start markers carry the text and the thread, end markers only
 * the id of their start; instantaneous markers stand alone. */
static int
map_marker(const CUpti_ActivityMarker2 *m, struct pr_rec *r)
{
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_START)
        r->kind = PR_REC_RANGE_START;
    else if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_END)
        r->kind = PR_REC_RANGE_END;
    else if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS)
        r->kind = PR_REC_MARKER;
    else
        return 0;
    r->start_ns = (int64_t)m->timestamp;
    r->end_ns = r->start_ns;
    r->id = m->id;
    r->name = m->name;
    if (m->objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS ||
        m->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD) {
        r->pid = m->objectId.pt.processId;
        r->tid = m->objectId.pt.threadId;
    }
    return 1;
}

static int
map_memory(const CUpti_ActivityMemory4 *m, struct pr_rec *r)
{
    if (m->memoryOperationType ==
        CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION)
        r->kind = PR_REC_ALLOC;
    else if (m->memoryOperationType ==
             CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE)
        r->kind = PR_REC_FREE;
    else
        return 0;
    r->start_ns = (int64_t)m->timestamp;
    r->end_ns = r->start_ns;
    r->correlation = m->correlationId;
    r->pid = m->processId;
    r->device = m->deviceId;
    r->context = m->contextId;
    r->stream = m->streamId;
    r->address = m->address;
    r->bytes = m->bytes;
    r->src_kind = (int)m->memoryKind;
    return 1;
}

int
pr_cupti_map(const void *activity, struct pr_rec *out)
{
    const CUpti_Activity *a = activity;

    memset(out, 0, sizeof(*out));
    switch (a->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        map_kernel(activity, out);
        return 1;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        map_memcpy(activity, out);
        return 1;
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
        map_peer(activity, out);
        return 1;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        map_memset(activity, out);
        return 1;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
        map_api(activity, out);
        return 1;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        map_sync(activity, out);
        return 1;
    case CUPTI_ACTIVITY_KIND_MARKER:
        return map_marker(activity, out);
    case CUPTI_ACTIVITY_KIND_MEMORY2:
        return map_memory(activity, out);
    default:
        return 0;
    }
}
