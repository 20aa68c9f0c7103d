#!/bin/sh
# critpath_before_capture.sh - device work the trace holds no launch for
# (launched before the capture: no runtime call shares its correlation)
# is device work on a no-step run's critical path, never host work
# (review 21 finding 1: nsys_before gpu0's 9.2 ms of kernels before pid
# 144's first runtime call read as 9.4 ms of host work).  The first trace
# holds a 9 ms kernel with no launch, then the host's first operator and
# launch; the second records the host's operator from 5 ms on, while the
# kernel runs, so that time stays the host's.  Last, a rank of only the
# producer's step table: its verdict counts the table's steps (review 21
# finding 10: "steps 0" beside "bound_steps 1").
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "launched before the capture" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
def trace(op_ts):
    return {"traceEvents": [
        X("kernel", "flash_fwd_kernel", 0, 9000, pid=0, tid=7,
          correlation=99, device=0, stream=7),
        X("cpu_op", "aten::mm", op_ts, 9200 - op_ts),
        X("cuda_runtime", "cudaLaunchKernel", 9150, 5, correlation=1),
        X("kernel", "volta_sgemm_128x64_nn", 9160, 300, pid=0, tid=7,
          correlation=1, device=0, stream=7)]}
json.dump(trace(9100), open(sys.argv[1] + "/before.pt.trace.json", "w"))
json.dump(trace(5000), open(sys.argv[1] + "/host.pt.trace.json", "w"))
PY

for c in before host; do
    "$PR_BIN" -q --input "$T_DIR/$c.pt.trace.json" --json "$T_DIR/$c.json" \
        2> "$T_DIR/$c.err"
    check "$c: exits 0" [ $? -eq 0 ]
done
check "the kernel launched before the capture is kernels on the path, the host's 150 µs host work" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['step_summary']['basis'] == 'capture', r['step_summary']
k = r['critical_path']['by_kind_us']
assert k['kernel'] >= 9300 and k['host_op'] <= 200, k
v = r['verdict']
assert v['bound'] == 'device', v
" "$T_DIR/before.json"
check "a host operator recorded while that kernel runs keeps its time host work" \
    python3 -c "
import json, sys
k = json.load(open(sys.argv[1]))['runs'][0]['critical_path']['by_kind_us']
assert k['host_op'] >= 9000 and k['kernel'] <= 400, k
" "$T_DIR/host.json"

R="$T_DIR/table/rank0_ascend_pt"
mkdir -p "$R/ASCEND_PROFILER_OUTPUT"
echo '{"rank_id": 0}' > "$R/profiler_info_0.json"
{
    echo 'Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,Communication(Not Overlapped and Exclude Receive),Preparing'
    echo '1,9000,90000,4000,94000,27000,126000,0,90000,20000'
    echo '2,9000,80000,4000,84000,20000,109000,0,80000,20000'
} > "$R/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"
"$PR_BIN" -q --input "$T_DIR/table" --json "$T_DIR/table.json" \
    2> "$T_DIR/table.err"
check "a step-table-only rank: exits 0" [ $? -eq 0 ]
check "its verdict counts the table's 2 steps, bound in 2 of them" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
v = r['verdict']
assert v.get('basis') == 'step_trace_time.csv', v
assert v['steps'] == 2 and v['bound_steps'] == 2, v
assert r['step_summary']['count'] == 2, r['step_summary']
" "$T_DIR/table.json"
echo "1..$T_N"
