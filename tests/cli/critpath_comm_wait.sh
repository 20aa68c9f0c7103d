#!/bin/sh
# critpath_comm_wait.sh - review 5 finding 5: a kernel idle after its
# stream's previous task (both launched long before, as a CUDA graph's
# kernels are) that starts as a collective on another stream of its device
# ends waited for that collective (critpath.c infer_stream_waits; HTA's
# trace_diff/test: 7.4 ms a step of stream-7 gaps end within 20 us of an
# ncclKernel_SendRecv on stream 15 and read "idle, no recorded cause").
# Hand-made traces: kernel A on stream 7 [10, 110) us, an
# ncclKernel_SendRecv on stream 15 [20, 500), kernel B on stream 7
# launched at 6 us and starting 8 us after the collective ends (a wait on
# it: communication on the path, no idle), or 100 us after (nothing
# ended just before it: the gap stays idle), or 8 us after a plain kernel
# on stream 15 (not a collective: idle).  The replay stays exact.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "waits on a collective" "no python3"
    echo "1..$T_N"
    exit 0
fi

# mk FILE B_START COLLECTIVE_NAME
mk() {
    python3 - "$1" "$2" "$3" << 'PY'
import json, sys
b = float(sys.argv[2])
def x(cat, name, pid, tid, ts, dur, **a):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": a}
ev = [x("user_annotation", "ProfilerStep#1", 1, 1, 0, 30),
      x("cpu_op", "aten::mm", 1, 1, 1, 3, **{"External id": 1}),
      x("cuda_runtime", "cudaLaunchKernel", 1, 1, 2, 1, correlation=1,
        **{"External id": 1}),
      x("cpu_op", "nccl:all_to_all", 1, 1, 4, 2, **{"External id": 2}),
      x("cuda_runtime", "cudaLaunchKernel", 1, 1, 4, 1, correlation=2,
        **{"External id": 2}),
      x("cpu_op", "aten::add", 1, 1, 6, 3, **{"External id": 3}),
      x("cuda_runtime", "cudaLaunchKernel", 1, 1, 6, 1, correlation=3,
        **{"External id": 3}),
      x("kernel", "kernel_A", 0, 7, 10, 100, device=0, stream=7,
        correlation=1, **{"External id": 1}),
      x("kernel", sys.argv[3], 0, 15, 20, 480, device=0, stream=15,
        correlation=2, **{"External id": 2}),
      x("kernel", "kernel_B", 0, 7, b, 100, device=0, stream=7,
        correlation=3, **{"External id": 3})]
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(sys.argv[1], "w"))
PY
}

# kinds FILE: "<replay error> <communication us> <idle us>"
kinds() {
    python3 - "$1" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))["runs"][0]["critical_path"]["steps"][0]
k = s["by_kind_us"]
print(s["replay_error_pct"], round(k["communication"]), round(k["idle"]))
PY
}

NCCL="ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)"
mk "$T_DIR/wait.json" 508 "$NCCL"
"$PR_BIN" -q --input "$T_DIR/wait.json" --json "$T_DIR/wait.s.json"
set -- $(kinds "$T_DIR/wait.s.json")
check "8 us after the collective: the replay is exact ($1%)" test "$1" = 0
check "8 us after the collective: it is on the path ($2 us)" test "$2" -ge 400
check "8 us after the collective: no idle on the path ($3 us)" test "$3" -lt 20

mk "$T_DIR/late.json" 600 "$NCCL"
"$PR_BIN" -q --input "$T_DIR/late.json" --json "$T_DIR/late.s.json"
set -- $(kinds "$T_DIR/late.s.json")
check "100 us after: the replay is exact ($1%)" test "$1" = 0
check "100 us after: the gap stays idle ($3 us)" test "$3" -ge 400

mk "$T_DIR/plain.json" 508 "plain_kernel"
"$PR_BIN" -q --input "$T_DIR/plain.json" --json "$T_DIR/plain.s.json"
set -- $(kinds "$T_DIR/plain.s.json")
check "after a plain kernel: the replay is exact ($1%)" test "$1" = 0
check "after a plain kernel: the gap stays idle ($3 us)" test "$3" -ge 300
echo "1..$T_N"
