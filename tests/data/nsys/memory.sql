-- An export with what tests/ingest/test_nsys.c checks besides basic.sql:
-- memory events (nsys profile --cuda-memory-usage=true), an emit_nvtx
-- operator whose sizes hold scalars and a tensor list, typed from the
-- bf16 GEMM it launched, and no GPU table.  One process, pid 42, thread
-- 42; globalTid = 1 << 48 | pid << 24 | tid.
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES
  (1, 'cudaLaunchKernel_v7000'),
  (2, 'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas'),
  (3, 'aten::addmm, seq = 5, op_id = 6, sizes = [[1000], [64, 512], [512, 1000], [], []], input_op_ids = [(1, 0)]'),
  (4, 'aten::cat, op_id = 8, sizes = [[[2, 3], [4, 3]], []]'),
  (5, 'void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 2, 64, 64>(T1 *, CatArrInputTensorMetadata<T1, T2, 64, 64>, TensorSizeStride<T2, 4>, int, T2)');
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
  start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
  (3000, 5000, 0, 7, 1, (1 << 48) | (42 << 24), 2, 2),
  (8000, 9000, 0, 7, 2, (1 << 48) | (42 << 24), 5, 5);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
  start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
  (1500, 2500, 1, (1 << 48) | (42 << 24) | 42, 1, 1),
  (6500, 7500, 1, (1 << 48) | (42 << 24) | 42, 2, 1);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER,
  eventType INTEGER NOT NULL, text TEXT, globalTid INTEGER, textId INTEGER);
INSERT INTO NVTX_EVENTS VALUES
  (1000, 3000, 59, NULL, (1 << 48) | (42 << 24) | 42, 3),
  (6000, 8000, 59, NULL, (1 << 48) | (42 << 24) | 42, 4);
-- 3 rows: 1 MiB allocated on device 0 inside aten::addmm, freed at 9500;
-- an unknown operation (2) is skipped
CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (
  start INTEGER NOT NULL, globalPid INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, address INTEGER NOT NULL, pc INTEGER NOT NULL,
  bytes INTEGER NOT NULL, memKind INTEGER NOT NULL,
  memoryOperationType INTEGER NOT NULL, name TEXT, correlationId INTEGER,
  streamId INTEGER);
INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES
  (2000, (1 << 48) | (42 << 24), 0, 1, 140000000, 0, 1048576, 2, 0, NULL, 1, 7),
  (9500, (1 << 48) | (42 << 24), 0, 1, 140000000, 0, 1048576, 2, 1, NULL, NULL, 7),
  (9600, (1 << 48) | (42 << 24), 0, 1, 150000000, 0, 4096, 2, 2, NULL, NULL, 7);
