#!/bin/sh
# whatif_gemv.sh - the AMP and TF32 what-ifs take the tensor-core
# section's eligibility (issue #28 #1): a matrix-vector product (aten::mv,
# or an aten::mm whose M is 1) runs cuBLAS's gemv or a GEMM kernel on CUDA
# cores bound by its memory traffic, with no tensor-core path to gain, so
# neither what-if replays it, though the plugin's list names aten::mv.
#
# Hand-made A100 steps as whatif.sh's amp case: the host launches one
# 1000 µs fp32 kernel and waits for it (1020 µs).
#  mv:  aten::mv [8192,8192]x[8192] on gemv2N_kernel: no enable_amp, no
#       tf32 (before: 913.666 and 827.331 µs "saved").
#  mm1: aten::mm [1,8192]x[8192,8192] on volta_sgemm_128x64_nn: the same.
#  mm:  the control, aten::mm 1024^3 on volta_sgemm_128x64_nn: AMP
#       937.5 µs, TF32 875 µs (19.5 -> 312 and 156 TFLOP/s).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "gemv what-if" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" << 'PY'
import json, sys
d = sys.argv[1]
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
def call(ts, dur, corr, name="cudaLaunchKernel"):
    return X("cuda_runtime", name, ts, dur, correlation=corr)
A100 = [{"id": 0, "name": "NVIDIA A100-SXM4-40GB", "computeMajor": 8,
         "computeMinor": 0, "numSms": 108}]
def case(op, dims, kernel):
    return [X("user_annotation", "ProfilerStep#1", 0, 1020),
            X("cpu_op", op, 0, 10, **{"Input Dims": dims,
              "Input type": ["float"] * len(dims)}),
            call(2, 5, 1),
            X("kernel", kernel, 10, 1000, pid=0, tid=7, correlation=1,
              device=0, stream=7),
            call(10, 1005, 2, "cudaDeviceSynchronize")]
GEMV = ("void gemv2N_kernel<int, int, float, float, float, 128, 32, 4, 4, "
        "false, false>(...)")
cases = {
    "mv": case("aten::mv", [[8192, 8192], [8192]], GEMV),
    "mm1": case("aten::mm", [[1, 8192], [8192, 8192]],
                "volta_sgemm_128x64_nn"),
    "mm": case("aten::mm", [[1024, 1024], [1024, 1024]],
               "volta_sgemm_128x64_nn"),
}
for k, v in cases.items():
    json.dump({"deviceProperties": A100, "traceEvents": v},
              open("%s/%s.pt.trace.json" % (d, k), "w"))
PY

# wi FILE: "AMP TF32" gains, "-" for a what-if not there
wi() {
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
w = {x['id']: x['gain_us'] for x in r['critical_path']['what_if']}
print(w.get('enable_amp', '-'), w.get('tf32', '-'))
" "$1"
}
for c in mv mm1 mm; do
    "$PR_BIN" -q --input "$T_DIR/$c.pt.trace.json" --json "$T_DIR/$c.json"
    check "$c: summary written (exit $?)" [ -s "$T_DIR/$c.json" ]
done
set -- $(wi "$T_DIR/mv.json")
check "aten::mv: no AMP what-if ($1)" test "$1" = -
check "aten::mv: no TF32 what-if ($2)" test "$2" = -
set -- $(wi "$T_DIR/mm1.json")
check "aten::mm with M = 1: no AMP what-if ($1)" test "$1" = -
check "aten::mm with M = 1: no TF32 what-if ($2)" test "$2" = -
set -- $(wi "$T_DIR/mm.json")
check "aten::mm 1024^3: AMP saves 937.5 µs ($1)" test "$1" = 937.5
check "aten::mm 1024^3: TF32 saves 875 µs ($2)" test "$2" = 875
echo "1..$T_N"
