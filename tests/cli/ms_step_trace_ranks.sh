#!/bin/sh
# ms_step_trace_ranks.sh - review30a #1 and #11: a MindSpore export of a
# step trace and its HCCL table only (no compute task).  The Ranks table
# took its split from the tasks, which are the collectives alone, and
# read "Computing 0, Free 86.5%" beside a step trace whose FP+BP is 84%
# of the step (held-out ms_ut).  Now the step trace is the producer's
# split (split_source "step_trace_raw": computation = fp_and_bp,
# communication = the collectives in the tail, other = the interval and
# the rest of the tail), and a finding's "not replayed" reason names the
# missing compute tasks, not the lesser unrecorded tail.  review31 #8:
# the run's communication.overlap_us is null too, and its observation
# says the overlap is not known instead of "computation overlaps 0%".
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "MindSpore step trace ranks" "no python3"
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
check "the rank's split is the step trace's, not 0 computing" python3 -c "
import json, sys
w = json.load(open(sys.argv[1]))['distributed']['workers']
assert len(w) == 1, w
w = w[0]
assert w['split_source'] == 'step_trace_raw', w
assert w['computation_us'] == 16000, w
assert w['overlap_us'] is None, w  # no compute task to overlap with
assert w['comm_overlap_pct'] is None, w
assert w['communication_us'] == 3000, w
assert w['other_us'] == 1000, w
" "$T_DIR/s.json"
check "the Ranks table says where its split comes from" \
    grep -q "from MindSpore&#39;s step trace\|from MindSpore's step trace" "$T_DIR/s.html"
check "no 'from the device tasks' in the Ranks note" \
    sh -c "! grep -q 'from the device tasks' '$T_DIR/s.html'"
check "a finding's reason names the missing compute tasks" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
notes = [x.get('gain_note') for x in r['recommendations'] + r['observations']]
notes = [n for n in notes if n]
assert notes, r['observations']
for n in notes:
    assert 'no compute tasks (FP+BP 16.0 ms of the step trace' in n, n
    assert 'last 2%' not in n, n
" "$T_DIR/s.json"
# review31 #8: the run's own communication split said overlap 0 and the
# observation "computation overlaps 0% of the step's collectives"
check "communication.overlap_us null, the observation says it is not known" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['communication']['overlap_us'] is None, r['communication']
assert [s['overlap_us'] for s in r['communication']['per_step']] == [None, None], r['communication']
o = [x for x in r['observations'] if x['id'] == 'communication']
assert o, r['observations']
t = o[0]['text']
assert 'computation overlaps 0%' not in t, t
assert 'the export records no compute tasks, so how much of the collectives' in t, t
assert 'overlaps computation is not known' in t, t
assert 'they run in the 4.0 ms tail after FP+BP' in t, t
assert 'If profiling the compute tasks shows' in t, t
" "$T_DIR/s.json"
for k in table diff; do
    if [ $k = table ]; then
        "$PR_BIN" table --kind findings --input "$T_DIR/s.json" > /dev/null 2>&1
    else
        "$PR_BIN" diff "$T_DIR/s.json" "$T_DIR/s.json" > /dev/null 2>&1
    fi
    check "the summary with overlap_us null reads back ($k)" [ $? -eq 0 ]
done
echo "1..$T_N"
