-- A one-process Nsight Systems export without step ranges (review 20
-- finding 6): its window is the whole capture, from the first event of
-- any kind the process made (a driver call included) to the last.
-- pid 100 on device 0; globalTid = 1 << 48 | pid << 24 | tid.
--   1000 ns    cuModuleGetLoadingMode, a driver call (eventClass 1): the
--              capture starts here
--   2000-6000  a kernel whose launch the capture does not hold (launched
--              before the host's record began): inside the window
--   10000      cudaLaunchKernel of the kernel at 12000-20000
--   25000      cudaMemcpyAsync of the copy at 26000-27000: the end
-- So: one step of 26 us from 0; kernel time 12 us, memcpy 1 us.  Before
-- the fix the window began at 6000 (the first kernel left out) and the
-- driver call did not count: 21 us, from 5 us, with 8 us of kernels.
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES
  (1, 'cudaLaunchKernel_v7000'),
  (2, 'cuModuleGetLoadingMode'),
  (3, 'cudaMemcpyAsync_v3020'),
  (4, 'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>(int, T2, T3)'),
  (5, 'vectorized_elementwise_kernel');

CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);
INSERT INTO META_DATA_EXPORT VALUES
  ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
  ('EXPORT_SCHEMA_VERSION', '3.25.0');

CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
INSERT INTO PROCESSES VALUES ((1 << 48) | (100 << 24), 100, 'python3');

CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
  start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
  correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL,
  shortName INTEGER NOT NULL, registersPerThread INTEGER NOT NULL,
  gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL,
  blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL,
  staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,
  graphNodeId INTEGER, graphId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
  (2000, 6000, 0, 1, 7, 99, (1 << 48) | (100 << 24), 4, 5, 32, 1024, 1, 1, 128, 1, 1, 0, 0, NULL, NULL),
  (12000, 20000, 0, 1, 7, 10, (1 << 48) | (100 << 24), 4, 5, 32, 1024, 1, 1, 128, 1, 1, 0, 0, NULL, NULL);

CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
  start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL,
  returnValue INTEGER NOT NULL, callchainId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
  (1000, 1100, 1, (1 << 48) | (100 << 24) | 100, 5, 2, 0, NULL),
  (10000, 11000, 0, (1 << 48) | (100 << 24) | 100, 10, 1, 0, NULL),
  (25000, 25500, 0, (1 << 48) | (100 << 24) | 100, 11, 3, 0, NULL);

CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (
  start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
  correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL,
  copyKind INTEGER NOT NULL, srcKind INTEGER, dstKind INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES
  (26000, 27000, 0, 1, 7, 11, (1 << 48) | (100 << 24), 1048576, 1, 0, 2);
