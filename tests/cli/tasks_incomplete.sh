#!/bin/sh
# tasks_incomplete.sh - a task list holding under half of the device time
# the producer's step table records a step (data_quality's
# tasks_incomplete) gets an extract's consequence (review23a #3): no
# critical path (no_path_reason "tasks_incomplete"), utilization and the
# temporal breakdown's shares null, Host and device's listed-tasks table,
# and a verdict that no longer says the critical path rests on the
# fraction.  Before, old2023's rank 1 (20 tasks with contiguous Task IDs,
# 5% of its step table's device time) replayed a path 94.4% short of its
# step and said "idle 96.1%", while rank 0 (an extract by its Task IDs)
# had none.  A rank whose tasks are the step table's keeps its path.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "tasks_incomplete" "no python3"
    echo "1..$T_N"
    exit 0
fi
H='Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim'
ST='Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,Communication(Not Overlapped and Exclude Receive)'
# rank r: ten 100 us MatMuls with Task IDs in a row (no extract by the
# ids) and one 300 us allreduce; $2: the step table's row
rank() {
    d="$T_DIR/job/rank$1_ascend_pt/ASCEND_PROFILER_OUTPUT"
    mkdir -p "$d"
    {
        echo "$H"
        i=0
        while [ $i -lt 10 ]; do
            echo "2,4294967295,$((100 + i)),2,MatMul_$i,MatMulV2,AI_CORE,$((1000000 + i * 200)).0,100.0,100,20"
            i=$((i + 1))
        done
        echo '2,4294967295,N/A,N/A,hcom_allReduce__1_0,hcom_allReduce_,HCCL,1002100.0,300.0,0,0'
    } > "$d/kernel_details.csv"
    printf '%s\n%s\n' "$ST" "$2" > "$d/step_trace_time.csv"
}
# rank 0: the table is its tasks (1.0 ms computing, 0.3 ms communication);
# rank 1: the table records 10x its tasks' device time
rank 0 '2,1000.0,300.0,0,300.0,1100.0,2400.0,0,300.0'
rank 1 '2,10000.0,3000.0,0,3000.0,2000.0,15000.0,0,3000.0'
"$PR_BIN" -q --input "$T_DIR/job" --json "$T_DIR/job.json" \
    --html "$T_DIR/job.html" 2> "$T_DIR/job.err"
check "a job of a whole and a partial task list is read" [ $? -eq 0 ]
check "the partial rank has no path, utilization or idle; the whole one keeps them" \
    python3 -c "
import json, sys
runs = json.load(open(sys.argv[1]))['runs']
assert len(runs) == 2, len(runs)
kinds = lambda r: [d['kind'] for d in r['diagnostics']]
# the folders name no rank (no profiler_info): the partial one is rank 1's
part = [r for r in runs if 'tasks_incomplete' in kinds(r)]
assert len(part) == 1, [kinds(r) for r in runs]
p = part[0]
w = [r for r in runs if r is not p][0]
assert w['critical_path']['no_path_reason'] is None, w['critical_path']
assert len(w['critical_path']['steps']) == 1, w['critical_path']
assert w['gpu_metrics'][0]['utilization_pct'] is not None, w['gpu_metrics']
assert 'tasks_incomplete' in kinds(p), kinds(p)
cp = p['critical_path']
assert cp['no_path_reason'] == 'tasks_incomplete', cp
assert cp['steps'] == [] and cp['replay_error_pct'] is None, cp
g = p['gpu_metrics'][0]
assert g['utilization_pct'] is None and g['utilization_series'] is None, g
assert 'incomplete' in g['note'] and g['kernel_time_us'] > 0, g
tb = p['temporal_breakdown'][0]
assert tb['idle_pct'] is None and tb['compute_pct'] is None, tb
v = p['verdict']['text']
assert 'incomplete' in v and 'critical path' not in v, v
d = [x for x in p['diagnostics'] if x['kind'] == 'tasks_incomplete'][0]
assert 'critical path' not in d['text'], d
" "$T_DIR/job.json"
check "the HTML says why the partial rank has no path and no idle share" \
    python3 -c "
import re, sys, html
t = html.unescape(re.sub(r'<[^>]+>', ' ', open(sys.argv[1]).read().replace('<wbr>', '')))
t = ' '.join(t.split())
assert 'No critical path: the task list holds under half of the device time' in t
assert 'The task list holds under half of the device time' in t
" "$T_DIR/job.html"
# review 28a #8: the partial rank's Cube share card is not known, not a
# share of its few listed tasks, and its uncovered time is "Not covered"
# as on an extract; the whole rank keeps its share and its "Other"
check "the partial rank's Cube share is not known and its breakdown says Not covered" \
    python3 -c "
import re, sys, html
t = html.unescape(re.sub(r'<[^>]+>', ' ', open(sys.argv[1]).read().replace('<wbr>', '')))
t = ' '.join(t.split())
assert 'Cube share 100.0% of compute task time on the AI Core Cube (HCCL tasks left out)' in t, 'whole rank'
assert 'Cube share \u2013 not known: the task list is incomplete (see Data quality)' in t, 'partial rank'
assert 'Step 2 \u00b7 Not covered: 13.7 ms' in t, 'Not covered'
" "$T_DIR/job.html"

# old2023: both ranks' lists are partial (rank 0 an extract by its Task
# IDs, rank 1 by its step table: 5% of its device time): neither has a
# path, utilization or idle share
if shared_report old torch_npu/old2023; then
    check "old2023: neither rank has a critical path, utilization or idle share" \
        python3 -c "
import json, sys
runs = {r['rank']: r for r in json.load(open(sys.argv[1]))['runs']}
assert runs[0]['critical_path']['no_path_reason'] == 'task_list_extract'
assert runs[1]['critical_path']['no_path_reason'] == 'tasks_incomplete'
for r in runs.values():
    assert r['critical_path']['steps'] == [], r['rank']
    assert r['gpu_metrics'][0]['utilization_pct'] is None, r['rank']
    assert r['temporal_breakdown'][0]['idle_pct'] is None, r['rank']
    assert 'critical path' not in r['verdict']['text'], r['verdict']['text']
" "$T_DIR/old.json"
    check "old2023: neither rank's Cube share card is a share of its few tasks" \
        python3 -c "
import re, sys, html
t = html.unescape(re.sub(r'<[^>]+>', ' ', open(sys.argv[1]).read().replace('<wbr>', '')))
t = ' '.join(t.split())
# rank 0 an extract, rank 1 incomplete by its step table
assert 'Cube share \u2013 not known: the task list is an extract (see Data quality)' in t
assert 'Cube share \u2013 not known: the task list is incomplete (see Data quality)' in t
assert 'Cube share 0.0%' not in t and 'Cube share 77.8%' not in t
" "$T_DIR/old.html"
    check "old2023: the terminal no longer says rank 1's critical path rests on a fraction" \
        sh -c "! grep -q 'the critical path and the findings built on tasks' '$T_DIR/old.term'"
else
    skip "old2023: no path on either rank" "no $PR_SHARED/traces/torch_npu/old2023"
fi
echo "1..$T_N"
