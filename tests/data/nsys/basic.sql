-- A small Nsight Systems export, written by hand after the schema of
-- `nsys export --type sqlite` 2026.2 (EXPORT_SCHEMA_VERSION 3.25.0), with
-- only the columns profreport reads.  tests/ingest/test_nsys.c builds a
-- database from it and checks what the reader makes of every row; the
-- expected numbers are in the comments.
--
-- Two processes of a 2-GPU job: pid 100 (thread 100) on CUDA device 0 and
-- pid 200 (thread 201) on device 1.  globalTid = 1 << 48 | pid << 24 | tid.
-- Process 300 appears only in PROCESSES: no run.
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES
  (1, 'cudaLaunchKernel_v7000'),
  (2, 'sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_execute_kernel_cublas'),
  (3, 'sm80_xmma_gemm_f32f32'),
  (4, 'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>(int, T2, T3)'),
  (5, 'cudaGraphLaunch_v10000'),
  (6, 'graph_node_kernel'),
  (7, 'aten::relu, seq = 7, op_id = 9'),
  (8, 'cuLaunchKernel'),
  (9, 'cudaMemcpyAsync_v3020'),
  (10, 'ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096>)'),
  (11, 'ncclDevKernel_AllReduce_Sum_f32_RING_LL'),
  (12, 'vectorized_elementwise_kernel');

CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);
INSERT INTO META_DATA_EXPORT VALUES
  ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
  ('EXPORT_SCHEMA_VERSION', '3.25.0');

CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
INSERT INTO PROCESSES VALUES
  ((1 << 48) | (100 << 24), 100, 'python3'),
  ((1 << 48) | (200 << 24), 200, 'python3'),
  ((1 << 48) | (300 << 24), 300, 'torchrun');

CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
  start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
  correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL,
  shortName INTEGER NOT NULL, registersPerThread INTEGER NOT NULL,
  gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL,
  blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL,
  staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,
  graphNodeId INTEGER, graphId INTEGER);
-- pid 100, device 0, stream 7: 5 kernels, 9000 ns
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
  (5000, 9000, 0, 1, 7, 10, (1 << 48) | (100 << 24), 2, 3, 126, 8, 4, 1, 256, 1, 1, 16384, 32768, NULL, NULL),
  (14000, 15000, 0, 1, 7, 11, (1 << 48) | (100 << 24), 4, 12, 32, 1024, 1, 1, 128, 1, 1, 0, 0, NULL, NULL),
  (31000, 32000, 0, 1, 7, 14, (1 << 48) | (100 << 24), 4, 12, 32, 1024, 1, 1, 128, 1, 1, 0, 0, NULL, NULL),
  (62000, 63000, 0, 1, 7, 30, (1 << 48) | (100 << 24), 6, 6, 40, 64, 1, 1, 256, 1, 1, 0, 0, 1, 5),
  (63000, 65000, 0, 1, 7, 30, (1 << 48) | (100 << 24), 6, 6, 40, 64, 1, 1, 256, 1, 1, 0, 0, 2, 5);
-- pid 200, device 1, stream 9: one NCCL kernel of 20000 ns
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
  (5000, 25000, 1, 2, 9, 10, (1 << 48) | (200 << 24), 10, 11, 96, 2, 1, 1, 640, 1, 1, 0, 0, NULL, NULL);

CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
  start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL,
  returnValue INTEGER NOT NULL, callchainId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
  (3000, 4000, 0, (1 << 48) | (100 << 24) | 100, 10, 1, 0, NULL),
  (12500, 13000, 0, (1 << 48) | (100 << 24) | 100, 11, 1, 0, NULL),
  (20000, 21000, 0, (1 << 48) | (100 << 24) | 100, 12, 9, 0, NULL),
  (30000, 30500, 1, (1 << 48) | (100 << 24) | 100, 14, 8, 0, NULL),
  (60000, 61000, 0, (1 << 48) | (100 << 24) | 100, 30, 5, 0, NULL),
  (3000, 4000, 0, (1 << 48) | (200 << 24) | 201, 10, 1, 0, NULL);

CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (
  start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
  correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL,
  copyKind INTEGER NOT NULL, srcKind INTEGER, dstKind INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES
  (21000, 22000, 0, 1, 7, 12, (1 << 48) | (100 << 24), 1048576, 1, 0, 2);

CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (
  start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
  correlationId INTEGER, globalPid INTEGER, value INTEGER NOT NULL,
  bytes INTEGER NOT NULL, memKind INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES
  (23000, 23500, 0, 1, 7, NULL, (1 << 48) | (100 << 24), 0, 4096, 2);

CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (
  start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
  correlationId INTEGER, globalPid INTEGER, syncType INTEGER NOT NULL,
  eventId INTEGER NOT NULL);
-- a sync names device 0 whatever the process ran on: pid 200's stays on
-- device 1
INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES
  (45000, 46000, 0, 1, 7, 40, (1 << 48) | (100 << 24), 3, 0),
  (26000, 27000, 0, 1, 4294967295, 41, (1 << 48) | (200 << 24), 4, 0);

CREATE TABLE NVTX_EVENTS (
  start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL,
  rangeId INTEGER, category INTEGER, color INTEGER, text TEXT,
  globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER);
INSERT INTO NVTX_EVENTS VALUES
  -- two numbered steps; "optimizer.step" is no step
  (1000, 50000, 59, NULL, NULL, NULL, 'train_step 1', (1 << 48) | (100 << 24) | 100, NULL, NULL, 0),
  (50000, 100000, 59, NULL, NULL, NULL, 'train_step 2', (1 << 48) | (100 << 24) | 100, NULL, NULL, 0),
  (1500, 40000, 59, NULL, NULL, NULL, 'forward', (1 << 48) | (100 << 24) | 100, NULL, NULL, 0),
  (41000, 42000, 59, NULL, NULL, NULL, 'optimizer.step', (1 << 48) | (100 << 24) | 100, NULL, NULL, 0),
  -- an iteration's part named "... step" is no step either (a CS336
  -- A100 export's "optimizer step" range was taken for the iteration)
  (42000, 43000, 59, NULL, NULL, NULL, 'optimizer step', (1 << 48) | (100 << 24) | 100, NULL, NULL, 0),
  (43000, 43500, 59, NULL, NULL, NULL, 'LR_scheduler_step', (1 << 48) | (100 << 24) | 100, NULL, NULL, 0),
  -- emit_nvtx operators: with shapes, and a registered string
  (2000, 10000, 59, NULL, NULL, NULL, 'aten::mm, seq = 3, op_id = 4, sizes = [[64, 512], [512, 1000]], input_op_ids = [(1, 0), (2, 0)]', (1 << 48) | (100 << 24) | 100, NULL, NULL, 0),
  (12000, 15000, 59, NULL, NULL, NULL, NULL, (1 << 48) | (100 << 24) | 100, NULL, 7, 0),
  -- a start/end range the capture ended inside, and a mark: not ranges
  (90000, NULL, 60, 1, NULL, NULL, 'dangling', (1 << 48) | (100 << 24) | 100, NULL, NULL, 0),
  (95000, 95000, 34, NULL, NULL, NULL, 'mark', (1 << 48) | (100 << 24) | 100, NULL, NULL, 0),
  -- pid 200: one unnamed-number step
  (1000, 30000, 59, NULL, NULL, NULL, 'Step', (1 << 48) | (200 << 24) | 201, NULL, NULL, 0);

CREATE TABLE TARGET_INFO_GPU (
  vmId INTEGER, id INTEGER NOT NULL, name TEXT, totalMemory INTEGER,
  smCount INTEGER, maxThreadsPerBlock INTEGER, threadsPerWarp INTEGER,
  maxWarpsPerSm INTEGER, maxRegistersPerBlock INTEGER,
  maxRegistersPerSm INTEGER, maxShmemPerBlock INTEGER,
  maxShmemPerSm INTEGER, maxShmemPerBlockOptin INTEGER,
  computeMajor INTEGER, computeMinor INTEGER);
INSERT INTO TARGET_INFO_GPU VALUES
  (1 << 48, 0, 'NVIDIA H100 80GB HBM3', 85520809984, 132, 1024, 32, 64, 65536, 65536, 49152, 233472, 232448, 9, 0),
  (1 << 48, 1, 'NVIDIA H100 80GB HBM3', 85520809984, 132, 1024, 32, 64, 65536, 65536, 49152, 233472, 232448, 9, 0);

CREATE TABLE TARGET_INFO_CUDA_DEVICE (gpuId INTEGER, cudaId INTEGER,
  pid INTEGER, uuid TEXT, numMultiprocessors INTEGER);
INSERT INTO TARGET_INFO_CUDA_DEVICE VALUES
  (0, 0, 100, NULL, 132), (1, 1, 100, NULL, 132),
  (0, 0, 200, NULL, 132), (1, 1, 200, NULL, 132);
