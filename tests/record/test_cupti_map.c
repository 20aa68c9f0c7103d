/* test_cupti_map.c - CUPTI records (the real CUDA 13 structs, synthesized:
 * no GPU needed) translated into neutral records. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <cupti.h>

#include "../../src/record/internal.h"
#include "profreport/record.h"

static void
test_kernel(void **state)
{
    CUpti_ActivityKernel10 k;
    struct pr_rec r;

    (void)state;
    memset(&k, 0, sizeof(k));
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.start = 1000;
    k.end = 2500;
    k.name = "_Z4gemmIfEvi";
    k.correlationId = 42;
    k.deviceId = 1;
    k.contextId = 2;
    k.streamId = 7;
    k.gridX = 1728, k.gridY = 2, k.gridZ = 1;
    k.blockX = 256, k.blockY = 1, k.blockZ = 1;
    k.registersPerThread = 32;
    k.staticSharedMemory = 1024;
    k.dynamicSharedMemory = 2048;
    k.shmemLimitConfig = CUPTI_FUNC_SHMEM_LIMIT_OPTIN;
    k.queued = 900;
    assert_int_equal(pr_cupti_map(&k, &r), 1);
    assert_int_equal(r.kind, PR_REC_KERNEL);
    assert_int_equal(r.start_ns, 1000);
    assert_int_equal(r.end_ns, 2500);
    assert_string_equal(r.name, "_Z4gemmIfEvi");
    assert_int_equal(r.correlation, 42);
    assert_int_equal(r.device, 1);
    assert_int_equal(r.context, 2);
    assert_int_equal(r.stream, 7);
    assert_int_equal(r.grid[1], 2);
    assert_int_equal(r.block[0], 256);
    assert_int_equal(r.regs_per_thread, 32);
    assert_int_equal(r.static_smem, 1024);
    assert_int_equal(r.dynamic_smem, 2048);
    assert_int_equal(r.smem_optin, 1);
    assert_int_equal(r.queued_ns, 900);
}

static void
test_memcpy_and_peer(void **state)
{
    CUpti_ActivityMemcpy6 m;
    CUpti_ActivityMemcpyPtoP4 p;
    struct pr_rec r;

    (void)state;
    memset(&m, 0, sizeof(m));
    m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    m.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
    m.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    m.bytes = 4096;
    m.start = 10, m.end = 20;
    m.correlationId = 43;
    m.streamId = 7;
    assert_int_equal(pr_cupti_map(&m, &r), 1);
    assert_int_equal(r.kind, PR_REC_MEMCPY);
    assert_int_equal(r.copy_kind, PR_COPY_HTOD);
    assert_int_equal(r.src_kind, PR_MEM_PAGEABLE);
    assert_int_equal(r.dst_kind, PR_MEM_DEVICE);
    assert_int_equal(r.bytes, 4096);
    assert_int_equal(r.correlation, 43);

    memset(&p, 0, sizeof(p));
    p.kind = CUPTI_ACTIVITY_KIND_MEMCPY2;
    p.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
    p.srcDeviceId = 0;
    p.dstDeviceId = 3;
    p.deviceId = 0;
    p.bytes = 1 << 20;
    assert_int_equal(pr_cupti_map(&p, &r), 1);
    assert_int_equal(r.copy_kind, PR_COPY_PTOP);
    assert_int_equal(r.dst_device, 3);
    assert_int_equal(r.bytes, 1 << 20);
}

static void
test_memset_api_sync(void **state)
{
    CUpti_ActivityMemset4 ms;
    CUpti_ActivityAPI api;
    CUpti_ActivitySynchronization2 sy;
    struct pr_rec r;

    (void)state;
    memset(&ms, 0, sizeof(ms));
    ms.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    ms.bytes = 100;
    ms.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    assert_int_equal(pr_cupti_map(&ms, &r), 1);
    assert_int_equal(r.kind, PR_REC_MEMSET);
    assert_int_equal(r.src_kind, PR_MEM_DEVICE);

    memset(&api, 0, sizeof(api));
    api.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
    api.cbid = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
    api.processId = 11, api.threadId = 12, api.correlationId = 42;
    api.start = 5, api.end = 6;
    assert_int_equal(pr_cupti_map(&api, &r), 1);
    assert_int_equal(r.kind, PR_REC_RUNTIME);
    assert_int_equal(r.cbid, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
    assert_int_equal(r.pid, 11);
    assert_int_equal(r.tid, 12);
    api.kind = CUPTI_ACTIVITY_KIND_DRIVER;
    assert_int_equal(pr_cupti_map(&api, &r), 1);
    assert_int_equal(r.kind, PR_REC_DRIVER);

    memset(&sy, 0, sizeof(sy));
    sy.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
    sy.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
    sy.streamId = 7;
    sy.cudaEventId = 9;
    assert_int_equal(pr_cupti_map(&sy, &r), 1);
    assert_int_equal(r.kind, PR_REC_SYNC);
    assert_int_equal(r.sync_kind, PR_SYNC_STREAM);
    assert_int_equal(r.id, 9);
}

static void
test_markers(void **state)
{
    CUpti_ActivityMarker2 m;
    struct pr_rec r;

    (void)state;
    memset(&m, 0, sizeof(m));
    m.kind = CUPTI_ACTIVITY_KIND_MARKER;
    m.flags = CUPTI_ACTIVITY_FLAG_MARKER_START;
    m.timestamp = 77;
    m.id = 3;
    m.name = "aten::mm, seq = 1";
    m.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    m.objectId.pt.processId = 11;
    m.objectId.pt.threadId = 12;
    assert_int_equal(pr_cupti_map(&m, &r), 1);
    assert_int_equal(r.kind, PR_REC_RANGE_START);
    assert_int_equal(r.id, 3);
    assert_int_equal(r.tid, 12);
    assert_string_equal(r.name, "aten::mm, seq = 1");
    m.flags = CUPTI_ACTIVITY_FLAG_MARKER_END;
    m.name = NULL;
    assert_int_equal(pr_cupti_map(&m, &r), 1);
    assert_int_equal(r.kind, PR_REC_RANGE_END);
    m.flags = CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS;
    assert_int_equal(pr_cupti_map(&m, &r), 1);
    assert_int_equal(r.kind, PR_REC_MARKER);
    m.flags = CUPTI_ACTIVITY_FLAG_NONE;
    assert_int_equal(pr_cupti_map(&m, &r), 0);
}

static void
test_memory_and_ignored(void **state)
{
    CUpti_ActivityMemory4 m;
    CUpti_ActivityCdpKernel other;
    struct pr_rec r;

    (void)state;
    memset(&m, 0, sizeof(m));
    m.kind = CUPTI_ACTIVITY_KIND_MEMORY2;
    m.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
    m.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    m.address = 0x7f00;
    m.bytes = 512;
    m.timestamp = 99;
    m.correlationId = 44;
    m.deviceId = 1;
    assert_int_equal(pr_cupti_map(&m, &r), 1);
    assert_int_equal(r.kind, PR_REC_ALLOC);
    assert_int_equal(r.address, 0x7f00);
    assert_int_equal(r.start_ns, 99);
    m.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE;
    assert_int_equal(pr_cupti_map(&m, &r), 1);
    assert_int_equal(r.kind, PR_REC_FREE);
    memset(&other, 0, sizeof(other));
    other.kind = CUPTI_ACTIVITY_KIND_CDP_KERNEL;
    assert_int_equal(pr_cupti_map(&other, &r), 0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel),
        cmocka_unit_test(test_memcpy_and_peer),
        cmocka_unit_test(test_memset_api_sync),
        cmocka_unit_test(test_markers),
        cmocka_unit_test(test_memory_and_ignored),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
