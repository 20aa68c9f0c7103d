#!/bin/sh
# cold_advice.sh - the cold_step advice says how to profile after warm-up
# in the words of the profiler that made the trace (s16 gpuleft #4: nsys
# mock.sqlite was told torch.profiler.schedule): on traces made here, an
# Nsight Systems export whose one launch holds the host 9 ms (capture.sql
# with the launch stretched) gets nsys's capture range; a Kineto trace with
# the same cold launch gets torch.profiler.schedule.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1 ||
   ! python3 -c 'import sqlite3' 2>/dev/null; then
    skip "cold_step advice" "python3 with its sqlite3 module is needed"
    echo "1..$T_N"
    exit 0
fi
python3 - "$PR_SRCDIR/tests/data/nsys/capture.sql" "$T_DIR" <<'PY'
import json, sqlite3, sys
s = open(sys.argv[1]).read()
for a, b in [("(12000, 20000, 0, 1, 7, 10,", "(9012000, 9020000, 0, 1, 7, 10,"),
             ("(10000, 11000, 0,", "(10000, 9011000, 0,"),
             ("(25000, 25500, 0,", "(9025000, 9025500, 0,"),
             ("(26000, 27000, 0, 1, 7, 11,", "(9026000, 9027000, 0, 1, 7, 11,")]:
    assert a in s, a
    s = s.replace(a, b)
db = sqlite3.connect(sys.argv[2] + "/cold.sqlite")
db.executescript(s)
db.commit()
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
ev = [X("cpu_op", "aten::add", 0, 9020),
      X("cuda_runtime", "cudaLaunchKernel", 5, 9000, correlation=1),
      X("kernel", "vectorized_elementwise_kernel", 9010, 8, pid=0, tid=7,
        correlation=1, device=0, stream=7),
      X("cpu_op", "aten::add", 9030, 30),
      X("cuda_runtime", "cudaLaunchKernel", 9035, 5, correlation=2),
      X("kernel", "vectorized_elementwise_kernel", 9041, 8, pid=0, tid=7,
        correlation=2, device=0, stream=7)]
json.dump({"traceEvents": ev}, open(sys.argv[2] + "/cold.pt.trace.json", "w"))
PY

cat > "$T_DIR/cold.py" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
x = [x for x in r['recommendations'] + r.get('observations', [])
     if x['id'] == 'cold_step']
assert x, [x['id'] for x in r['recommendations']]
t = x[0]['text']
if sys.argv[2] == 'nsys':
    assert 'nsys profile --capture-range=cudaProfilerApi' in t, t
    assert 'torch.profiler.schedule' not in t, t
else:
    assert 'torch.profiler.schedule(wait=1, warmup=1, active=3)' in t, t
    assert 'nsys' not in t, t
PY
"$PR_BIN" -q --input "$T_DIR/cold.sqlite" --json "$T_DIR/n.json" 2> "$T_DIR/err"
check "nsys export, a cold launch: nsys's capture range" \
    python3 "$T_DIR/cold.py" "$T_DIR/n.json" nsys
"$PR_BIN" -q --input "$T_DIR/cold.pt.trace.json" --json "$T_DIR/k.json" \
    2> "$T_DIR/err"
check "Kineto trace, a cold launch: torch.profiler.schedule" \
    python3 "$T_DIR/cold.py" "$T_DIR/k.json" kineto
echo "1..$T_N"
