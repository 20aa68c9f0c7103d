"""two_steps.py OUT - a hand-made Kineto trace of two 1.9 ms
ProfilerSteps, each a GEMM launched by aten::mm, a pageable HtoD copy, a
memset and a device synchronize (the first kernel starts 100 us into its
step): the typed single-object tests' trace (typed_objects_time.sh,
typed_objects_advice.sh)."""
import json, sys
ev = []
for i in range(2):
    t0 = 1000 + 2000 * i
    def x(cat, name, ts, dur, pid=1, tid=1, **a):
        ev.append({"ph": "X", "cat": cat, "name": name, "pid": pid,
                   "tid": tid, "ts": ts, "dur": dur, "args": a})
    x("user_annotation", "ProfilerStep#%d" % (i + 1), t0, 1900)
    x("cpu_op", "aten::mm", t0 + 10, 60, **{"External id": 10 + i})
    x("cuda_runtime", "cudaLaunchKernel", t0 + 20, 10,
      correlation=100 + i, **{"External id": 10 + i})
    x("kernel", "ampere_sgemm_128x64_nn", t0 + 100, 300, pid=0, tid=7,
      device=0, stream=7, correlation=100 + i, **{"External id": 10 + i})
    x("cuda_runtime", "cudaMemcpyAsync", t0 + 500, 20, correlation=200 + i)
    x("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", t0 + 520, 100,
      pid=0, tid=7, device=0, stream=7, correlation=200 + i, bytes=1048576)
    x("cuda_runtime", "cudaMemsetAsync", t0 + 700, 5, correlation=300 + i)
    x("gpu_memset", "Memset (Device)", t0 + 710, 10, pid=0, tid=7,
      device=0, stream=7, correlation=300 + i, bytes=4096)
    x("cuda_runtime", "cudaDeviceSynchronize", t0 + 730, 200,
      correlation=400 + i)
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
