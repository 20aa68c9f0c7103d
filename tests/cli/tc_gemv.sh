#!/bin/sh
# tc_gemv.sh - a matrix-vector product is not "tensor-core eligible but
# missed" (issue #30 #5): aten::mv / aten::addmv, or aten::mm / addmm /
# linear with M or N of 1, run cuBLAS's gemv kernels on CUDA cores.  The
# plugin's own figures keep its list (it names aten::mv): the operators
# table's tc_eligible stays true for aten::mv.
#
# Hand-made A100 step of fp16 operators whose kernels all run on CUDA
# cores: aten::mm [1,4096]x[4096,4096] (gemv2T_kernel_val), aten::mv
# [4096,4096]x[4096] (gemv2N_kernel), aten::addmm with N = 1, an fp32
# aten::mm [1024,1]x[1,5185] whose K is 1 (an outer product, memory-bound,
# on ampere_sgemm_128x32_nn: issue #29 #2), and a
# control aten::mm [256,256]x[256,256] on an FFMA kernel: only the control
# is a tensor-core finding, and eligible_on_tc_pct counts only its time.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "gemv eligibility" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR/g.json" << 'PY'
import json, sys
H = "c10::Half"
ops = [("aten::mm", [[1, 4096], [4096, 4096]], [H, H],
        "void gemv2T_kernel_val<int, int, __half, __half, float, 128, 16, 4, 4, false, false>(...)"),
       ("aten::mv", [[4096, 4096], [4096]], [H, H],
        "void gemv2N_kernel<int, int, __half, __half, float, 128, 8, 4, 4, 1>(...)"),
       ("aten::addmm", [[1], [1024, 512], [512, 1], [], []],
        [H, H, H, "Scalar", "Scalar"],
        "void gemv2T_kernel_val<int, int, __half, __half, float, 128, 16, 4, 4, false, true>(...)"),
       ("aten::mm", [[1024, 1], [1, 5185]], ["float", "float"],
        "ampere_sgemm_128x32_nn"),
       ("aten::mm", [[256, 256], [256, 256]], [H, H],
        "volta_sgemm_128x64_nn")]
def x(cat, name, pid, tid, ts, dur, **a):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": a}
ev = [x("user_annotation", "ProfilerStep#1", 1, 1, 0, 2400)]
for i, (op, dims, types, k) in enumerate(ops):
    t = 10 + 400 * i
    ev += [x("cpu_op", op, 1, 1, t, 30, **{"External id": i + 1,
             "Input Dims": dims, "Input type": types}),
           x("cuda_runtime", "cudaLaunchKernel", 1, 1, t + 5, 5,
             correlation=i + 1, **{"External id": i + 1}),
           x("kernel", k, 0, 7, t + 20, 100, device=0, stream=7,
             correlation=i + 1, grid=[64, 1, 1], block=[128, 1, 1],
             **{"External id": i + 1})]
props = [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "computeMajor": 8,
          "computeMinor": 0, "numSms": 108, "totalGlobalMem": 85899345920,
          "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
          "regsPerBlock": 65536, "regsPerMultiprocessor": 65536,
          "warpSize": 32, "sharedMemPerBlock": 49152,
          "sharedMemPerMultiprocessor": 167936}]
json.dump({"schemaVersion": 1, "deviceProperties": props,
           "traceEvents": ev}, open(sys.argv[1], "w"))
PY

"$PR_BIN" -q --input "$T_DIR/g.json" --json "$T_DIR/g.s.json"
set -- $(python3 - "$T_DIR/g.s.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
tc = r["tensor_cores"]
f = [(x["operator"], x["input_shapes"]) for x in tc.get("findings") or []]
gemv = [k for k in f if "256, 256" not in k[1]]
ctl = [k for k in f if "[[256, 256], [256, 256]]" in k[1]]
mv = [o for o in r["operators"] if o["name"] == "aten::mv"]
print(len(gemv), len(ctl), tc.get("eligible_on_tc_pct"),
      bool(mv) and mv[0].get("tc_eligible") is True)
PY
)
check "no GEMV is a tensor-core finding ($1)" test "$1" = 0
check "the 256x256 GEMM on CUDA cores still is ($2)" test "$2" = 1
check "eligible_on_tc_pct over the GEMM alone: 0 ($3)" test "$3" = 0
check "the plugin's tc_eligible stays true for aten::mv ($4)" \
    test "$4" = True
echo "1..$T_N"
