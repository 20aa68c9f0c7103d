#!/bin/sh
# npu_aicpu_rule.sh - issue #30 #2: a task its producer places on the
# device's AI CPU (Task Type AI_CPU) is judged by that unit, and
# tensor_cores_rule named the unit "cpu", which read as the host's CPU
# beside math "ai_cpu" on the same row (MindSpore's ms_run2 and
# ms_fixtures).  The rule now says "ai_cpu" (docs/summary-json.md: older
# summaries' "cpu" is the same unit).  Hand-made torch_npu trace_view:
# an AI_CPU task and an AI_CORE one; a MindSpore timeline's AI CPU ops
# are in ms_aicpu.sh.
. "$PR_SRCDIR/tests/lib.sh"
PYTHONPATH="$PR_SRCDIR/tests/cli/lib${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

if ! command -v python3 > /dev/null 2>&1; then
    skip "AI CPU rule" "no python3"
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
      task("Add1", 100, 300, 1, "AI_VECTOR_CORE"),
      task("NonZero1", 500, 200, 2, "AI_CPU")]
d = os.path.join(sys.argv[1], "r_ascend_pt", "ASCEND_PROFILER_OUTPUT")
os.makedirs(d)
json.dump(ev, open(os.path.join(d, "trace_view.json"), "w"))
PY
"$PR_BIN" -q --input "$T_DIR/r_ascend_pt" --json "$T_DIR/s.json" \
    2> "$T_DIR/err"
check "the trace is read" [ $? -eq 0 ]
check "the AI_CPU task: math ai_cpu, judged by its unit, rule ai_cpu" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
k = {x['name']: x for x in r['kernels']}
a = k['NonZero1']
assert a['math'] == 'ai_cpu' and a['tensor_cores_source'] == 'unit', a
assert a['tensor_cores_rule'] == 'ai_cpu' and a['tensor_cores_used'] is False, a
assert k['Add1']['tensor_cores_rule'] == 'vector', k['Add1']
assert not any(x['tensor_cores_rule'] == 'cpu' for x in r['kernels']), k
" "$T_DIR/s.json"
echo "1..$T_N"
