#!/bin/sh
# kernel_details_name.sh - torch_npu's kernel_details table is known by its
# header (Step Id, Model ID, Task ID, Stream ID, Name, Type, [OP State,]
# Accelerator Core, Start Time(us), Duration(us), ...), whatever the file
# is called: given alone, kernel_details_910B_v1.csv is read as a run, its
# rows its tasks (review 20 #5, issue #30: it was refused as "CSV text of
# no known table").  Found in a folder beside a kernel_details.csv, the
# run's own by torch_npu's name, such a table is another capture's or a
# copy: skipped, saying so, so that no task is counted twice.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "kernel_details by its header" "no python3"
    echo "1..$T_N"
    exit 0
fi
H='Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim'
mkdir -p "$T_DIR/one" "$T_DIR/two"
# three tasks, 100 + 50 + 25 µs
{
    echo "$H"
    echo '1,4294967295,1,2,MatMul_1,MatMulV2,AI_CORE,1000000.0,100.0,0,20'
    echo '1,4294967295,2,2,Add_2,Add,AI_VECTOR_CORE,1000110.0,50.0,0,8'
    echo '1,4294967295,3,2,Cast_3,Cast,AI_VECTOR_CORE,1000170.0,25.0,0,8'
} > "$T_DIR/one/kernel_details_v1.csv"
"$PR_BIN" -q --input "$T_DIR/one/kernel_details_v1.csv" \
    --json "$T_DIR/one.json" 2> "$T_DIR/one.err"
check "a renamed kernel_details table given alone is read" [ $? -eq 0 ]
check "its three rows are the run's tasks: 3 calls, 175 µs" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
k = r['kernels']
assert sum(x['calls'] for x in k) == 3, k
assert abs(sum(x['total_us'] for x in k) - 175.0) < 1e-6, k
" "$T_DIR/one.json"

# beside the run's kernel_details.csv (one task of 40 µs), the renamed table
# is skipped with its reason; named on the command line, it is read
{
    echo "$H"
    echo '1,4294967295,7,2,Relu_7,Relu,AI_VECTOR_CORE,2000000.0,40.0,0,8'
} > "$T_DIR/two/kernel_details.csv"
cp "$T_DIR/one/kernel_details_v1.csv" "$T_DIR/two/"
"$PR_BIN" --input "$T_DIR/two" --json "$T_DIR/two.json" > /dev/null \
    2> "$T_DIR/two.err"
check "a folder with both is read" [ $? -eq 0 ]
check "beside kernel_details.csv: one run, its one task, the other table skipped with its reason" \
    python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
assert len(s['runs']) == 1, [r['worker'] for r in s['runs']]
k = s['runs'][0]['kernels']
assert sum(x['calls'] for x in k) == 1 and k[0]['name'] == 'Relu_7', k
e = open(sys.argv[2]).read()
assert 'kernel_details_v1.csv: a second kernel_details table beside kernel_details.csv' in e, e
assert 'so that no task is counted twice' in e, e
assert 'no known table' not in e, e
d = [x for x in s['runs'][0]['diagnostics'] if x['kind'] == 'kernel_details_other']
assert d and d[0]['count'] == 1 and '(kernel_details_v1.csv), not read' in d[0]['text'], s['runs'][0]['diagnostics']
" "$T_DIR/two.json" "$T_DIR/two.err"

# the same inside a run folder the Ascend reader claims whole
R="$T_DIR/r0_ascend_pt/ASCEND_PROFILER_OUTPUT"
mkdir -p "$R"
cp "$T_DIR/two/kernel_details.csv" "$T_DIR/one/kernel_details_v1.csv" "$R/"
"$PR_BIN" --input "$T_DIR/r0_ascend_pt" --json "$T_DIR/r0.json" > /dev/null \
    2> "$T_DIR/r0.err"
check "a run folder: its kernel_details.csv read, the other table in data quality" \
    python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
r = s['runs'][0]
assert len(s['runs']) == 1 and sum(x['calls'] for x in r['kernels']) == 1, r['kernels']
d = [x for x in r['diagnostics'] if x['kind'] == 'kernel_details_other']
assert d and d[0]['count'] == 1, r['diagnostics']
assert 'a second kernel_details table beside kernel_details.csv' in open(sys.argv[2]).read()
" "$T_DIR/r0.json" "$T_DIR/r0.err"

# the shared tables: 591 and 29 rows, each read alone as a run of its
# distinct tasks (a row repeating the Stream ID, Task ID, Start Time and
# Duration of an earlier one is that task again: v2 lists 25 tasks in 29
# rows, review22a #8), their durations summed here from the file
D=msprof/torch_npu_ascend_profiler_output
if have_shared && [ -d "$PR_SHARED/traces/$D" ]; then
    for f in kernel_details_910B_v1.csv kernel_details_910B_v2_pmu.csv; do
        "$PR_BIN" -q --input "$PR_SHARED/traces/$D/$f" --json "$T_DIR/$f.json" \
            2> "$T_DIR/$f.err"
        check "$f alone: a run of its rows' tasks" python3 -c "
import csv, json, sys
rows, seen = [], set()
for x in csv.DictReader(open(sys.argv[2])):
    key = (x['Stream ID'], x['Task ID'], x['Start Time(us)'], x['Duration(us)'])
    if x['Stream ID'] == 'N/A' or key not in seen:
        rows.append(x)
    seen.add(key)
r = json.load(open(sys.argv[1]))['runs'][0]
k = r['kernels']
assert sum(x['calls'] for x in k) == len(rows), (sum(x['calls'] for x in k), len(rows))
tot = sum(float(x['Duration(us)']) for x in rows)
assert abs(sum(x['total_us'] for x in k) - tot) < 0.01 * len(rows), (sum(x['total_us'] for x in k), tot)
" "$T_DIR/$f.json" "$PR_SHARED/traces/$D/$f"
    done
    "$PR_BIN" --input "$PR_SHARED/traces/$D" --json "$T_DIR/out.json" > /dev/null \
        2> "$T_DIR/out.err"
    check "msprof_npu_out: three captures, three runs, nothing skipped" \
        python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
n = sorted((r['worker'], sum(x['calls'] for x in r['kernels'])) for r in s['runs'])
assert n == [('kernel_details_910B_v1.csv', 591), ('kernel_details_910B_v2_pmu.csv', 25), ('trace_view', 274)], n  # its 2 MEMCPY_ASYNC tasks are copies (review 28a #10)
e = open(sys.argv[2]).read()
assert 'skipping' not in e, e
" "$T_DIR/out.json" "$T_DIR/out.err"
else
    skip "msprof/torch_npu_ascend_profiler_output" "no $PR_SHARED/traces/$D"
fi
echo "1..$T_N"
