#!/bin/sh
# verdict_sparse_cause.sh - the sparse-capture verdict says what the trace
# records (its few tasks and their device time on the path) and what it
# does not (any task or wait in the idle), not "the trace records no
# cause" (issue #28 #3): a capture this sparse is itself a reason the
# path is idle.  Hand-made A100 capture, no steps: kernel_A [10, 30) us
# and kernel_B [400000, 400020) us, both launched in the first 13 us, the
# host in cudaDeviceSynchronize until 400024 us: 2 tasks, 40 us of device
# work, the path 99.99% idle: "over 99.9%", not a rounded "100%".
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "sparse verdict" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
d = sys.argv[1]
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
def K(name, ts, dur, corr):
    return X("kernel", name, ts, dur, pid=0, tid=7, correlation=corr,
             device=0, stream=7)
A100 = [{"id": 0, "name": "NVIDIA A100-SXM4-40GB", "computeMajor": 8,
         "computeMinor": 0, "numSms": 108}]
ev = [X("cpu_op", "aten::add", 0, 10),
      X("cuda_runtime", "cudaLaunchKernel", 2, 5, correlation=1),
      K("kernel_A", 10, 20, 1),
      X("cuda_runtime", "cudaLaunchKernel", 8, 5, correlation=2),
      K("kernel_B", 400000, 20, 2),
      X("cuda_runtime", "cudaDeviceSynchronize", 14, 400010, correlation=3)]
json.dump({"deviceProperties": A100, "traceEvents": ev},
          open("%s/sparse.pt.trace.json" % d, "w"))
PY
"$PR_BIN" -q --input "$T_DIR/sparse.pt.trace.json" --json "$T_DIR/s.json"
check "summary written (exit $?)" [ -s "$T_DIR/s.json" ]
python3 -c "
import json, sys
print(json.load(open(sys.argv[1]))['runs'][0]['verdict']['text'])
" "$T_DIR/s.json" > "$T_DIR/v.txt"
check "the verdict names the sparse capture ($(cat "$T_DIR/v.txt"))" \
    grep -q '^The capture holds only 2 device tasks in 400.0 ms, so it shows no training loop.s work' "$T_DIR/v.txt"
check "it says what the trace records: 40 µs of device work, over 99.9% idle" \
    grep -q 'the path holds 40 µs of device work and is over 99.9% idle, time for which the trace records neither a task nor a wait' "$T_DIR/v.txt"
check "not a rounded '100% idle'" sh -c '! grep -q "100% idle" "$1"' _ "$T_DIR/v.txt"
check "not 'records no cause'" sh -c '! grep -q "records no cause" "$1"' _ "$T_DIR/v.txt"
echo "1..$T_N"
