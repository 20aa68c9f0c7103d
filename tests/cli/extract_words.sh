#!/bin/sh
# extract_words.sh - how the report words a task list that is an extract
# or a file labelled with a step it does not bound (review23a items 2, 1,
# 5, 6 and 10):
# - #2 Recommendations: an extract (utilization, idle and the path not
#   known) with no "no_*" row is not "nothing stood out in this run";
# - #1 the Overview's breakdown: an extract's Other is time its listed
#   tasks do not cover ("Not covered"), said under the chart, not idle;
# - #5 a Step Id column on every row: the Overview's KPI and banner and
#   the terminal's headline say the steps are not bounded (every row is
#   in step 19), not "no step marks";
# - #6 the utilization KPI card of an extract has a short reason (its
#   counts are Data quality's);
# - #10 the verdict counts the tasks "with a Stream ID", as Data quality
#   does, where rows without one are listed too.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "extract words" "no python3"
    echo "1..$T_N"
    exit 0
fi

# an msprof op_summary extract: Task IDs 100 apart (594 skipped over 7
# rows), plus an HCCL row without a Stream ID; its only rows are
# task_list_extract (no "no_*" row)
{
    echo 'Step Id,Model ID,Task ID,Stream ID,Op Name,OP Type,Task Type,Start Time(us),Task Duration(us),Task Wait Time(us),Block Dim'
    i=0
    while [ $i -lt 7 ]; do
        echo "2,4294967295,$((1 + i * 100)),2,MatMul_$i,MatMulV2,AI_CORE,$((1000000 + i * 1000)).0,100.0,0,20"
        i=$((i + 1))
    done
    echo '2,4294967295,N/A,N/A,hcom_allReduce__1_0,hcom_allReduce_,HCCL,1007500.0,200.0,0,0'
} > "$T_DIR/op_summary_0.csv"
"$PR_BIN" -q --input "$T_DIR/op_summary_0.csv" --json "$T_DIR/ops.json" \
    --html "$T_DIR/ops.html" 2> "$T_DIR/ops.err"
check "op_summary extract: read" [ $? -eq 0 ]
check "op_summary extract: an extract, its Step Id a label (no_steps), no recommendation" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
k = [d['kind'] for d in r['diagnostics']]
assert 'task_list_extract' in k and 'no_steps' in k, k
assert not r.get('recommendations') and not r.get('observations'), r
" "$T_DIR/ops.json"
check "#2: Recommendations says some checks could not run, not 'nothing stood out'" \
    python3 -c "
import sys
h = open(sys.argv[1]).read()
assert 'nothing stood out' not in h
assert 'some checks could not run' in h
" "$T_DIR/ops.html"
check "#1: the breakdown's Other is 'Not covered', and the note says not idle" \
    python3 -c "
import sys
h = open(sys.argv[1]).read()
assert 'Other:' not in h, 'Other:'
assert 'Not covered:' in h
assert 'is time they do not cover, not idle' in h
" "$T_DIR/ops.html"
check "#6: the utilization card's reason is short, the counts stay in Data quality" \
    python3 -c "
import sys
h = open(sys.argv[1]).read()
assert 'not known: the task list is an extract (see Data quality)' in h
assert 'of which it lists 7 with a Stream ID; see Data quality): utilization' not in h
" "$T_DIR/ops.html"
check "#10: the verdict and the NPU row count the 7 tasks with a Stream ID (of 8 rows), as Data quality does" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
v = r['verdict']['text']
assert 'at least 601 tasks by their Task IDs, of which it lists 7 with a Stream ID)' in v, v
assert 'The Kernels table' not in v and 'The kernel tables hold the tasks it lists' in v, v
assert 'of which it lists 7 with a Stream ID;' in r['gpu_metrics'][0]['note'], r['gpu_metrics']
d = [x for x in r['diagnostics'] if x['kind'] == 'task_list_extract'][0]['text']
assert 'its 7 tasks with a Stream ID' in d, d
assert sum(k['calls'] for k in r['kernels']) == 8  # the HCCL row is listed, with no Stream ID
" "$T_DIR/ops.json"

# a kernel_details extract whose every row is in step 19
{
    echo 'Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim'
    i=0
    while [ $i -lt 7 ]; do
        echo "19,4294967295,$((1 + i * 100)),2,MatMul_$i,MatMulV2,AI_CORE,$((1000000 + i * 1000)).0,100.0,0,20"
        i=$((i + 1))
    done
} > "$T_DIR/kd.csv"
"$PR_BIN" -q --input "$T_DIR/kd.csv" --json "$T_DIR/kd.json" \
    --html "$T_DIR/kd.html" 2> "$T_DIR/kd.err"
check "kernel_details in step 19: read" [ $? -eq 0 ]
"$PR_BIN" --input "$T_DIR/kd.csv" > "$T_DIR/kd.term" 2> /dev/null
check "#5: the terminal's headline says step 19, not 'no step markers'" \
    grep -q "^kd.csv: no step bounds (every task row is in step 19, whose bounds the file does not give); the whole capture" "$T_DIR/kd.term"
check "#5: the KPI and the banner say every row is in step 19, not 'no step marks'" \
    python3 -c "
import sys
h = open(sys.argv[1]).read()
assert 'no step marks' not in h, 'no step marks'
assert 'No step bounds' in h
assert 'every task row is in step 19, whose bounds the file does not give: the whole capture is one window' in h
assert 'No step bounds in this trace (every task row is in step 19' in h
" "$T_DIR/kd.html"
# a whole list without a Step Id column keeps 'no step marks'
{
    echo 'Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim'
    echo '4294967295,1,2,MatMul_1,MatMulV2,AI_CORE,1000000.0,100.0,0,20'
    echo '4294967295,2,2,MatMul_2,MatMulV2,AI_CORE,1000200.0,100.0,0,20'
} > "$T_DIR/nostep.csv"
"$PR_BIN" -q --input "$T_DIR/nostep.csv" --html "$T_DIR/nostep.html" \
    2> "$T_DIR/nostep.err"
check "no Step Id column, a whole list: 'no step marks' and 'Other' as before" \
    python3 -c "
import sys
h = open(sys.argv[1]).read()
assert 'no step marks' in h and 'Not covered' not in h and 'Other:' in h
" "$T_DIR/nostep.html"

# ---- the shared samples
D=msprof/torch_npu_ascend_profiler_output
if have_shared && [ -f "$PR_SHARED/traces/$D/kernel_details_910B_v2_pmu.csv" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/$D/kernel_details_910B_v2_pmu.csv" \
        --html "$T_DIR/v2.html" 2> /dev/null
    check "kernel_details_910B_v2_pmu: step 19 not bounded, Not covered, a short card" \
        python3 -c "
import sys
h = open(sys.argv[1]).read()
assert 'no step marks' not in h
assert 'every task row is in step 19' in h
assert 'Not covered: 2.85 s' in h and 'Other: 2.85 s' not in h
assert 'not known: the task list is an extract (see Data quality)' in h
" "$T_DIR/v2.html"
else
    skip "kernel_details_910B_v2_pmu" "no $PR_SHARED/traces/$D"
fi
O=msprof/extra/msinsight_op_summary
if have_shared && [ -d "$PR_SHARED/traces/$O" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/$O" --html "$T_DIR/opsum.html" \
        2> /dev/null
    check "msinsight_op_summary: no 'nothing stood out'" python3 -c "
import sys
h = open(sys.argv[1]).read()
assert 'nothing stood out' not in h and 'some checks could not run' in h
" "$T_DIR/opsum.html"
else
    skip "msinsight_op_summary" "no $PR_SHARED/traces/$O"
fi
echo "1..$T_N"
