#!/bin/sh
# diff_comm_exposed.sh - issue #29: the diff's breakdown.communication is
# the exposed communication on both sides (collective time beside no
# compute kernel, copy or fill); the note under the figures says so and
# gives the collectives' total time per step beside it, so a fall of the
# exposed part is not read as less communication (HTA trace_diff: exposed
# 14.4 -> 9.59 ms, total 27.3 -> 36.6 ms).  Hand-made: 3 steps a side, each
# with a 300 us all-reduce kernel; the baseline's runs beside a 500 us GEMM
# (hidden), the current's after it (exposed).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "exposed communication" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" << 'PY'
import json, sys
def trace(path, hidden):
    ev = []
    for s in range(3):
        t0 = s * 2000
        ev.append({"ph": "X", "cat": "user_annotation",
                   "name": "ProfilerStep#%d" % s, "pid": 1, "tid": 1,
                   "ts": t0, "dur": 1500, "args": {}})
        for j, (name, stream, start, dur, op) in enumerate((
                ("ampere_sgemm_128x64_nn", 7, 10, 500, "aten::mm"),
                ("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)", 9,
                 100 if hidden else 600, 300, "nccl:all_reduce"))):
            c = 10 * s + j + 1
            ev.append({"ph": "X", "cat": "user_annotation" if "nccl" in op
                       else "cpu_op", "name": op, "pid": 1, "tid": 1,
                       "ts": t0 + 1 + j * 4, "dur": 3,
                       "args": {"External id": c}})
            ev.append({"ph": "X", "cat": "cuda_runtime",
                       "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                       "ts": t0 + 2 + j * 4, "dur": 1,
                       "args": {"correlation": c, "External id": c}})
            ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0,
                       "tid": stream, "ts": t0 + start, "dur": dur,
                       "args": {"correlation": c, "External id": c,
                                "device": 0, "stream": stream}})
    json.dump({"traceEvents": ev}, open(path, "w"))
trace(sys.argv[1] + "/b.json", True)
trace(sys.argv[1] + "/c.json", False)
PY
"$PR_BIN" diff -q "$T_DIR/b.json" "$T_DIR/c.json" --json "$T_DIR/d.json" \
    --markdown "$T_DIR/d.md" > /dev/null 2> "$T_DIR/err"
COLUMNS=300 "$PR_BIN" diff "$T_DIR/b.json" "$T_DIR/c.json" 2> /dev/null |
    tr '\n' ' ' > "$T_DIR/d.txt"
check "the row keeps both runs' total collective time per step (300 us)" \
    python3 -c "
import json, sys
p = json.load(open(sys.argv[1]))['runs'][0]
r = [m for m in p['metrics'] if m['metric'] == 'breakdown.communication'][0]
assert abs(r['baseline']) < 1 and abs(r['current'] - 300) < 1, r
assert abs(r['total_baseline_us'] - 300) < 1, r
assert abs(r['total_current_us'] - 300) < 1, r
" "$T_DIR/d.json"
check "the note: exposed on both sides, the total beside it" \
    grep -q "breakdown.communication is the exposed communication on both sides: collective time beside no compute kernel, copy or fill. The collectives' total time per step, hidden or not, is 300 µs (baseline) -> 300 µs (current), 0.0%\." \
    "$T_DIR/d.txt"
check "  the Markdown too" grep -q "is the exposed communication on both sides" \
    "$T_DIR/d.md"
echo "1..$T_N"
