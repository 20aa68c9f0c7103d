#!/bin/sh
# cube_extract.sh - review30a #2 (the report part): the Overview's Cube
# share card says "not known" for a task list that is an extract, but the
# Cube and Vector section printed the same share bare ("Task time on the
# Cube 98.6%" on kd_910B_v2, 77.8% on msprof_op_summary).  Both of its
# share cards now use the Overview's test: "–, not known: the task list
# is an extract (...; of the listed tasks: NN%)"; a whole list keeps its
# figures.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "Cube share of an extract" "no python3"
    echo "1..$T_N"
    exit 0
fi
# an msprof op_summary extract: Task IDs 100 apart, 6 MatMul and 1 Add
{
    echo 'Step Id,Model ID,Task ID,Stream ID,Op Name,OP Type,Task Type,Start Time(us),Task Duration(us),Task Wait Time(us),Block Dim'
    i=0
    while [ $i -lt 6 ]; do
        echo "2,4294967295,$((1 + i * 100)),2,MatMul_$i,MatMulV2,AI_CORE,$((1000000 + i * 1000)).0,100.0,0,20"
        i=$((i + 1))
    done
    echo "2,4294967295,601,2,Add_1,Add,AI_VECTOR_CORE,1006000.0,100.0,0,20"
} > "$T_DIR/op_summary_0.csv"
"$PR_BIN" -q --input "$T_DIR/op_summary_0.csv" --html "$T_DIR/ops.html" \
    2> "$T_DIR/ops.err"
check "op_summary extract: read" [ $? -eq 0 ]
check "Cube and Vector: no bare share of the extract" python3 -c "
import re, sys, html
h = open(sys.argv[1]).read()
t = re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ', h)))
i = t.find('Task time on the Cube')
assert i >= 0, 'no Cube card'
card = t[i:i + 200]
assert re.match(r'Task time on the Cube [0-9]', card) is None, card
assert 'not known: the task list is an extract' in card, card
assert 'of the listed tasks: 85.7%' in card, card
j = t.find('Cube-eligible task time')
assert 'not known: the task list is an extract' in t[j:j + 200], t[j:j + 200]
" "$T_DIR/ops.html"
# the same rows, whole (consecutive Task IDs): the share stands
mkdir -p "$T_DIR/whole"
{
    echo 'Step Id,Model ID,Task ID,Stream ID,Op Name,OP Type,Task Type,Start Time(us),Task Duration(us),Task Wait Time(us),Block Dim'
    i=0
    while [ $i -lt 6 ]; do
        echo "2,4294967295,$((1 + i)),2,MatMul_$i,MatMulV2,AI_CORE,$((1000000 + i * 100)).0,100.0,0,20"
        i=$((i + 1))
    done
    echo "2,4294967295,7,2,Add_1,Add,AI_VECTOR_CORE,1000600.0,100.0,0,20"
} > "$T_DIR/whole/op_summary_0.csv"
"$PR_BIN" -q --input "$T_DIR/whole/op_summary_0.csv" \
    --html "$T_DIR/whole.html" 2> "$T_DIR/whole.err"
check "a whole list keeps its Cube share" python3 -c "
import re, sys, html
h = open(sys.argv[1]).read()
t = re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ', h)))
i = t.find('Task time on the Cube')
assert t[i:i + 40].startswith('Task time on the Cube 85.7%'), t[i:i + 200]
" "$T_DIR/whole.html"

# ---- the shared samples
D=msprof/torch_npu_ascend_profiler_output
if have_shared && [ -f "$PR_SHARED/traces/$D/kernel_details_910B_v2_pmu.csv" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/$D/kernel_details_910B_v2_pmu.csv" \
        --html "$T_DIR/v2.html" 2> /dev/null
    check "kernel_details_910B_v2_pmu: the Cube share of the listed tasks only" \
        python3 -c "
import re, sys, html
h = open(sys.argv[1]).read()
t = re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ', h)))
assert re.search(r'Task time on the Cube [0-9]', t) is None
assert 'of the listed tasks: 98.6%' in t
" "$T_DIR/v2.html"
else
    skip "kernel_details_910B_v2_pmu" "no $PR_SHARED/traces/$D"
fi
echo "1..$T_N"
