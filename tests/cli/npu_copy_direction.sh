#!/bin/sh
# npu_copy_direction.sh - review 28a #14: torch_npu's trace_view states an
# RTS copy task's direction and size in its args ('memcpy direction':
# 'host to device', 'device to device', or '... ex' for the runtime's _EX
# copies; 'data size(Byte)'): npu_text2's 24 MEMCPY_ASYNC tasks read as
# 24 copies of direction "other" and no bytes.  Hand-made: four copy tasks
# (HtoD, HtoD ex, DtoD, DtoH) and a compute task -> three directions with
# their bytes; a copy task without the args stays "other".
. "$PR_SRCDIR/tests/lib.sh"
PYTHONPATH="$PR_SRCDIR/tests/cli/lib${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

if ! command -v python3 > /dev/null 2>&1; then
    skip "NPU copy direction" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" << 'PY'
import json, os, sys
from hccl_trace import A, proc, task
ev = [proc(100, "Python"), proc(800, "CANN"), proc(900, "Ascend Hardware"),
      {"ph": "M", "name": "process_labels", "pid": 900, "tid": 0,
       "args": {"labels": "NPU 0"}},
      A("ProfilerStep#1", 100, 100, 0, 2000, "cpu_op"),
      task("MatMul1", 100, 300, 1)]
copies = (("host to device", 1000000, 50), ("host to device ex", 1168, 5),
          ("device to device", 4096, 2), ("device to host", 2048, 3), None)
for i, c in enumerate(copies):
    e = task("MEMCPY_ASYNC", 500 + 100 * i, 40, 10 + i, "Other")
    if c is not None:
        e["args"].update({"memcpy direction": c[0], "data size(Byte)": c[1]})
    ev.append(e)
d = os.path.join(sys.argv[1], "r_ascend_pt", "ASCEND_PROFILER_OUTPUT")
os.makedirs(d)
json.dump(ev, open(os.path.join(d, "trace_view.json"), "w"))
PY
"$PR_BIN" -q --input "$T_DIR/r_ascend_pt" --json "$T_DIR/s.json" \
    2> "$T_DIR/err"
check "the trace is read" [ $? -eq 0 ]
check "copies by direction with their bytes, the one without args other" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
k = {x['direction']: (x['count'], x['bytes']) for x in r['copies']['by_kind']}
assert k.get('HtoD') == (2, 1001168), k
assert k.get('DtoD') == (1, 4096), k
assert k.get('DtoH') == (1, 2048), k
assert k.get('other', (0,))[0] == 1, k
assert r['copies']['count'] == 5, r['copies']
" "$T_DIR/s.json"
echo "1..$T_N"
