#!/bin/sh
# ms_step_trace_fpbp.sh - review 28h #7: a legacy MindSpore export of a
# step trace (step_trace_raw_<dev>_detail_time.csv) and its HCCL table
# only times FP+BP for most of each step but exports no compute task.
# The device computed then: the verdict names the forward and backward
# pass from the step trace, the temporal breakdown's compute and idle are
# not known (not "idle 80% ... no cause"), and Host and device names the
# step trace as where the computation is.  Before: "The capture holds
# only 2 device tasks in 33.6 ms ... the device is idle 86% of it and the
# trace records no cause" on MindSpore's own unit-test data.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "MindSpore step trace FP+BP" "no python3"
    echo "1..$T_N"
    exit 0
fi
P=$T_DIR/profiler
mkdir -p "$P"
# two 20 ms steps (10 ns ticks): FP+BP 16 ms, tail 4 ms holding a 3 ms
# AllReduce
cat > "$P/step_trace_raw_3_detail_time.csv" << 'EOF'
step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail,stream_9_0_AllReduce-op7,stream_9_0_AllReduce-op7_start_point,stream_9_0_AllReduce-op7_end_point
1,100000000,102000000,2000000,100000000,101600000,0,1600000,400000,300000,101650000,101950000
2,102000000,104000000,2000000,102000000,103600000,0,1600000,400000,300000,103650000,103950000
-,102000000,104000000,2000000,102000000,103600000,0,1600000,400000,300000,103650000,103950000
EOF
cat > "$P/hccl_raw_3.csv" << 'EOF'
step_num,communication_cost,wait_cost,link_info,communication_operator_cost
1,3.0,1e-05,"{""1-0"": {""SDMA"": [2.9, 65536.0, 22000000.0]}}","{""stream_9_0_AllReduce-op7"": [""1"", 3.0, 1e-05, {""1-0"": {""SDMA"": [2.9, 65536.0, 22000000.0]}}]}"
2,3.0,1e-05,"{""1-0"": {""SDMA"": [2.9, 65536.0, 22000000.0]}}","{""stream_9_0_AllReduce-op7"": [""2"", 3.0, 1e-05, {""1-0"": {""SDMA"": [2.9, 65536.0, 22000000.0]}}]}"
-,3.0,1e-05,"{""1-0"": {""SDMA"": [2.9, 65536.0, 22000000.0]}}","{""stream_9_0_AllReduce-op7"": [""-"", 3.0, 1e-05, {""1-0"": {""SDMA"": [2.9, 65536.0, 22000000.0]}}]}"
EOF
"$PR_BIN" -q --input "$P" --json "$T_DIR/s.json" --html "$T_DIR/s.html" \
    2> "$T_DIR/err"
check "the step trace and HCCL table are read (exit 0)" [ $? -eq 0 ]
"$PR_BIN" --input "$P" > "$T_DIR/term" 2> /dev/null
check "the verdict names FP+BP from the step trace, not idle" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['step_trace']['compute_tasks'] is False, r['step_trace']
v = r['verdict']
assert v['bound'] == 'device', v
assert 'FP+BP takes 16.0 ms of the 20.0 ms mean step (80%' in v['text'], v['text']
assert 'idle' not in v['text'] and 'no cause' not in v['text'], v['text']
tb = r['temporal_breakdown'][0]
assert tb['compute_pct'] is None and tb['idle_pct'] is None, tb
assert tb['communication_us'] > 0, tb
g = r['gpu_metrics'][0]
assert g['compute_utilization_pct'] is None, g
" "$T_DIR/s.json"
check "the terminal says no 'idle ... no cause'" \
    sh -c "! grep -q 'records no cause' '$T_DIR/term' && grep -q 'forward and backward pass' '$T_DIR/term'"
check "Host and device names the step trace's FP+BP" \
    grep -q "MindSpore&#39;s step trace (step_trace_raw, its FP+BP)\|MindSpore's step trace (step_trace_raw, its FP+BP)" "$T_DIR/s.html"
echo "1..$T_N"
