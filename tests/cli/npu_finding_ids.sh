#!/bin/sh
# npu_finding_ids.sh - an NPU run's reports show a finding's id in NPU
# words (ascleft2 #4): the summary keeps its contract id
# low_gpu_utilization, but the terminal's "[id]" and the Recommendations
# callout of an NPU run read low_npu_utilization (npu_trace_view and
# msprof_npu_out read "[low_gpu_utilization]" before); a GPU run's stay.
#
# tests/data/ascend/aclop (a torch_npu trace_view) summarised, then a
# low_gpu_utilization recommendation and finding added to the summary,
# which is read back as the input.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "NPU finding ids" "no python3"
    echo "1..$T_N"
    exit 0
fi

"$PR_BIN" -q -i "$PR_SRCDIR/tests/data/ascend/aclop" --json "$T_DIR/s.json"
check "aclop: exit 0" test $? -eq 0
python3 - "$T_DIR/s.json" "$T_DIR/low.json" << 'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d['runs'][0]
r['recommendations'].append({
    'id': 'low_gpu_utilization', 'severity': 'warning',
    'text': 'The device is busy 12% of the step.'})
f = dict(r['verdict']['findings'][0])
f.update({'rank': len(r['verdict']['findings']) + 1,
          'id': 'low_gpu_utilization', 'title': 'Device underused'})
r['verdict']['findings'].append(f)
json.dump(d, open(sys.argv[2], 'w'))
PY
"$PR_BIN" -q -i "$T_DIR/low.json" --html "$T_DIR/low.html" \
    --json "$T_DIR/low2.json" 2> "$T_DIR/low.err"
check "saved summary with the finding: exit 0" test $? -eq 0
# the terminal's summary (not printed with -q)
"$PR_BIN" -i "$T_DIR/low.json" > "$T_DIR/low.term" 2> /dev/null
check "NPU run: the terminal says [low_npu_utilization], no gpu" \
    sh -c 'grep -q "Device underused: .*\[low_npu_utilization\]" "$1" &&
        ! grep -qi "gpu" "$1"' _ "$T_DIR/low.term"
check "NPU run: the Recommendations callout says low_npu_utilization" \
    sh -c 'grep -q "low_npu_utilization" "$1" &&
        ! grep -q "low_gpu_utilization" "$1"' _ "$T_DIR/low.html"
check "the summary keeps its contract id" \
    grep -q '"low_gpu_utilization"' "$T_DIR/low2.json"

if shared_summary tv msprof/torch_npu_ascend_profiler_output/trace_view.json
then
    "$PR_BIN" -i "$PR_SHARED/traces/msprof/torch_npu_ascend_profiler_output/trace_view.json" \
        > "$T_DIR/tv.term" 2> /dev/null
    check "npu_trace_view: [low_npu_utilization] in the terminal, no GPU word" \
        sh -c 'grep -q "\[low_npu_utilization\]" "$1" && ! grep -qi "gpu" "$1"' \
        _ "$T_DIR/tv.term"
else
    skip "npu_trace_view's terminal" "no $PR_SHARED/traces"
fi

echo "1..$T_N"
