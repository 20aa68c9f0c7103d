-- emit_nvtx ranges of a training step, as tests/ingest/test_nsys.c needs
-- them: forward operators on the main thread (tid 42 = pid 42), autograd
-- nodes on the engine's thread (tid 43), in the texts PyTorch wrote them
-- (getNvtxStr, torch/csrc/profiler/util.cpp; 0.4-1.0's profiler.cpp):
-- 2.x's "MmBackward0, seq = 1, op_id = 7" inside the engine's
-- "autograd::engine::evaluate_function: MmBackward0, op_id = 6" (no
-- sequence number: it takes its node's, as Kineto gives it), 1.1-1.10's "MmBackward, seq = 4", a Python
-- Function's node, one of torch::autograd's own, 0.4-1.0's "mm, seq=2"
-- and "MmBackward, stashed seq=2"; ATen ops run by backward
-- ("aten::convolution_backward", lower case, a namespace) are no nodes.
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER,
  eventType INTEGER NOT NULL, text TEXT, globalTid INTEGER);
INSERT INTO NVTX_EVENTS VALUES
  (100, 200, 59, 'aten::mm, seq = 1, op_id = 1, sizes = [[64, 512], [512, 1000]]', (1 << 48) | (42 << 24) | 42),
  (300, 400, 59, 'mm, seq=2', (1 << 48) | (42 << 24) | 42),
  (1000, 1900, 59, 'autograd::engine::evaluate_function: MmBackward0, op_id = 6', (1 << 48) | (42 << 24) | 43),
  (1010, 1890, 59, 'MmBackward0, seq = 1, op_id = 7, sizes = [[64, 1000]]', (1 << 48) | (42 << 24) | 43),
  (1020, 1100, 59, 'aten::convolution_backward, seq = 0, op_id = 8', (1 << 48) | (42 << 24) | 43),
  (2000, 2100, 59, 'MmBackward, seq = 4', (1 << 48) | (42 << 24) | 43),
  (2200, 2300, 59, 'CheckpointFunctionBackward, seq = 5, op_id = 9', (1 << 48) | (42 << 24) | 43),
  (2400, 2500, 59, 'torch::autograd::CopySlices, seq = 6, op_id = 10', (1 << 48) | (42 << 24) | 43),
  (2600, 2700, 59, 'MmBackward, stashed seq=2', (1 << 48) | (42 << 24) | 43),
  (2800, 2900, 59, 'torch::autograd::AccumulateGrad, op_id = 11', (1 << 48) | (42 << 24) | 43),
  (3000, 3100, 59, 'MyBackward', (1 << 48) | (42 << 24) | 43),
  -- an evaluate_function whose node range lies outside it keeps no number
  (3200, 3300, 59, 'autograd::engine::evaluate_function: AddBackward0, op_id = 12', (1 << 48) | (42 << 24) | 43),
  (3400, 3500, 59, 'AddBackward0, seq = 7, op_id = 13', (1 << 48) | (42 << 24) | 43);
