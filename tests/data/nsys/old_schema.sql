-- An export from an older schema, as tests/ingest/test_nsys.c needs it:
-- kernels without demangledName, graph or shared-memory columns, NVTX
-- text only inline (no textId), no runtime, copy or GPU tables.  The
-- reader probes columns and tables, so it reads what there is: 2 kernels
-- named by shortName (3000 ns) and one annotation.
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'volta_sgemm_128x64_nn'), (2, 'reduce_kernel');
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
  start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  shortName INTEGER NOT NULL, gridX INTEGER, gridY INTEGER, gridZ INTEGER,
  blockX INTEGER, blockY INTEGER, blockZ INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
  (100, 2100, 0, 7, 1, (1 << 48) | (42 << 24), 1, 4, 1, 1, 128, 1, 1),
  (3000, 4000, 0, 7, 2, (1 << 48) | (42 << 24), 2, 1, 1, 1, 256, 1, 1);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER,
  eventType INTEGER NOT NULL, text TEXT, globalTid INTEGER);
INSERT INTO NVTX_EVENTS VALUES
  (0, 5000, 59, 'inference', (1 << 48) | (42 << 24) | 42);
