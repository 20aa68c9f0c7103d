#!/bin/sh
# ms_aicpu.sh - issue #30 #4: a legacy MindSpore Ascend run's AI CPU ops
# (its timeline's pid 9000, which MindSpore labels "AICPU OP", or its
# aicpu_intermediate_*.csv) keep the unit their producer names: their
# class is AI CPU (math ai_cpu, Cube judged by the unit) and they have a
# timeline lane of their own, "NPU<d> AI CPU".  Before, the reader set
# the unit on the task but not on the model (fill_gpu), so an AI CPU op
# was judged by its name and sat on a lane "NPU0 (no stream)".
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "MindSpore AI CPU" "no python3"
    echo "1..$T_N"
    exit 0
fi
D=$T_DIR/ms
mkdir -p "$D"
cat > "$D/ascend_timeline_display_0.json" << 'EOF'
[{"name": "Default/Add-op1", "ph": "X", "tid": 519, "ts": 100.0, "dur": 20.0, "pid": 1, "args": {"type": "Add", "fullname": "Default/Add-op1"}},
{"name": "GetNext", "ph": "X", "tid": "0", "ts": 10.0, "dur": 50.0, "pid": 9000},
{"name": "Default/DropoutGenMask-op3", "ph": "X", "tid": "0", "ts": 200.0, "dur": 30.0, "pid": 9000},
{"name": "Default/MatMul-op2", "ph": "X", "tid": 519, "ts": 130.0, "dur": 40.0, "pid": 1, "args": {"type": "MatMul", "fullname": "Default/MatMul-op2"}}]
EOF
"$PR_BIN" -q --input "$D" --json "$T_DIR/ms.json" --html "$T_DIR/ms.html" \
    2> "$T_DIR/ms.err"
check "a MindSpore timeline with AI CPU ops is read" [ $? -eq 0 ]
check "the AI CPU ops are classed AI CPU, the AI Core ops not" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
k = {x['name']: x for x in r['kernels']}
for n in ('GetNext', 'Default/DropoutGenMask-op3'):
    assert k[n]['math'] == 'ai_cpu' and k[n]['tensor_cores_used'] is False \
        and k[n]['tensor_cores_rule'] == 'ai_cpu', k[n]
assert k['Default/Add-op1']['math'] != 'ai_cpu', k['Default/Add-op1']
m = {x['math']: x for x in r['kernel_classes']['by_math']}
assert m['ai_cpu']['kernels'] == 2 and m['ai_cpu']['total_us'] == 80, m
" "$T_DIR/ms.json"
check "the AI CPU ops have their own lane, NPU0 AI CPU" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
lanes = {l['name']: l for l in r['timeline']['lanes']}
assert sorted(lanes) == ['NPU0 AI CPU', 'NPU0 stream 519'], sorted(lanes)
assert sorted(s[3] for s in lanes['NPU0 AI CPU']['spans']) == \
    ['Default/DropoutGenMask-op3', 'GetNext'], lanes['NPU0 AI CPU']
" "$T_DIR/ms.json"
check "the HTML names the lane, never (no stream)" \
    sh -c "grep -q 'NPU0 AI CPU' '$T_DIR/ms.html' &&
           ! grep -q 'NPU0 (no stream)' '$T_DIR/ms.html'"
echo "1..$T_N"
