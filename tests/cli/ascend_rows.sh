#!/bin/sh
# ascend_rows.sh - the rows of torch_npu's kernel_details.csv and msprof's
# op_summary as the run's tasks (review22a items 6, 8, 2 and 9):
# - a record of another field count than the header's is not read with
#   its columns shifted (old2023 rank 0's FlashAttentionScore lost its
#   Duration field, so its Wait Time 1.84 us was read as its duration):
#   the row is left out and Data quality names file, line and counts;
# - a row repeating the Stream ID, Task ID, Start Time and Duration of an
#   earlier one is that task again, counted once and named;
# - a table whose Task IDs skip far more ids than it holds rows is an
#   extract (kernel_details_910B_v2_pmu: 25 tasks skip 18,749 ids):
#   utilization, idle and the critical path are not known, not "idle
#   100%"; a whole list (ids in a row) is not one; a task of two FFTS+
#   contexts (two rows, one Task ID, Context ID 0 and 1: op_summary_1's
#   Task 3183, NonZero_MemSet and NonZero) is one task (review24 #6);
# - a Step Id column says the run was stepped: no "inference run, or
#   profiling without prof.step()";
# - "Parsed" counts the table's bytes;
# - an AI_CPU or DSA_SQE task's math is "ai_cpu" / "dsa", whatever its
#   name's rule says (a Cast is "vector" by name).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "kernel_details rows" "no python3"
    echo "1..$T_N"
    exit 0
fi
H='Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim'

# ---- item 6: a short record (its Duration field missing) among whole ones
{
    echo "$H"
    echo '2,4294967295,1,2,MatMul_1,MatMulV2,AI_CORE,1000000.0,100.0,0,20'
    echo '2,4294967295,2,2,FlashAttentionScore,FlashAttentionScore,MIX_AIC,1000110.0,1.84,24'
    echo '2,4294967295,3,2,Add_3,Add,AI_VECTOR_CORE,1007200.0,50.0,0,8'
} > "$T_DIR/short_kd.csv"
"$PR_BIN" -q --input "$T_DIR/short_kd.csv" --json "$T_DIR/short.json" \
    2> "$T_DIR/short.err"
check "a table with a short record is read" [ $? -eq 0 ]
check "the short record is no task (no 1.84 us FlashAttentionScore); Data quality names file, line, fields" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
names = sorted(k['name'] for k in r['kernels'])
assert names == ['Add_3', 'MatMul_1'], names
d = [x for x in r['diagnostics'] if x['kind'] == 'csv_ragged_rows']
assert len(d) == 1 and d[0]['count'] == 1, r['diagnostics']
t = d[0]['text']
assert t.startswith('short_kd.csv line 3: 10 fields, header 11 (FlashAttentionScore)'), t
assert 'not read' in t and 'shifted' in t, t
# named beside the table it belongs to too (review24): the kernel table's note
k = r['kernels_note']
assert k.startswith('Left out of this table: short_kd.csv line 3 (FlashAttentionScore): the record has another number of fields'), k
" "$T_DIR/short.json"
"$PR_BIN" -q --input "$T_DIR/short_kd.csv" --html "$T_DIR/short.html" 2> /dev/null
check "the short record is named in the HTML's Kernels section, after its table" \
    python3 -c "
import re, sys
h = open(sys.argv[1]).read()
k = h.find('id=\"kernels\"')
n = h.find('Left out of this table: short_kd.csv line 3 (FlashAttentionScore)')
assert k >= 0 and n > k and h.find('<table', k) < n, (k, n)
" "$T_DIR/short.html"
"$PR_BIN" table --kind kernels --input "$T_DIR/short_kd.csv" -w 200 \
    > "$T_DIR/short.txt" 2> /dev/null
check "table --kind kernels names the short record under the table" \
    grep -q "Left out of this table: short_kd.csv line 3 (FlashAttentionScore)" \
    "$T_DIR/short.txt"

# the same in an op_summary table (msprof), and a long record
OH='Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,Task Type,Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Dim'
{
    echo "$OH"
    echo '0,4294967295,1,2,MatMul_1,MatMulV2,AI_CORE,1000000.0,100.0,0,20'
    echo '0,4294967295,2,2,FA_2,FlashAttentionScore,MIX_AIC,1000110.0,1.84,24'
    echo '0,4294967295,3,2,Add_3,Add,AI_VECTOR_CORE,1007200.0,50.0,0,8,9'
    echo '0,4294967295,4,2,Mul_4,Mul,AI_VECTOR_CORE,1007300.0,10.0,0,8'
} > "$T_DIR/op_summary_0.csv"
"$PR_BIN" -q --input "$T_DIR/op_summary_0.csv" --json "$T_DIR/ops.json" \
    2> "$T_DIR/ops.err"
check "op_summary: the short and the long record are left out and named" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
names = sorted(k['name'] for k in r['kernels'])
assert names == ['MatMul_1', 'Mul_4'], names
d = [x for x in r['diagnostics'] if x['kind'] == 'csv_ragged_rows']
assert len(d) == 1 and d[0]['count'] == 2, r['diagnostics']
t = d[0]['text']
assert 'op_summary_0.csv line 3: 10 fields, header 11 (FA_2); line 4: 12 fields, header 11 (Add_3)' in t, t
k = r['kernels_note']
assert k.startswith('Left out of this table: op_summary_0.csv line 3 (FA_2), line 4 (Add_3): the records have'), k
" "$T_DIR/ops.json"

# every table reader does the same: MindSpore's step trace with its
# second step's record cut short (its last field missing)
cp -R "$PR_SRCDIR/tests/data/mindspore/pp2" "$T_DIR/pp2"
chmod -R u+w "$T_DIR/pp2"
python3 - "$T_DIR/pp2/step_trace_raw_0_detail_time.csv" << 'PY'
import sys
p = sys.argv[1]
lines = open(p).read().split('\n')
lines[2] = lines[2].rsplit(',', 1)[0]
open(p, 'w').write('\n'.join(lines))
PY
"$PR_BIN" -q --input "$T_DIR/pp2" --json "$T_DIR/pp2.json" 2> /dev/null
check "MindSpore step trace: the short record is not a step, and is named" \
    python3 -c "
import json, sys
r = [x for x in json.load(open(sys.argv[1]))['runs'] if x['worker'] == 'rank0'][0]
assert len(r['steps']) == 2, [s['step'] for s in r['steps']]
d = [x for x in r['diagnostics'] if x['kind'] == 'csv_ragged_rows']
assert len(d) == 1 and d[0]['text'].startswith('step_trace_raw_0_detail_time.csv line 3: 14 fields, header 15 (2)'), r['diagnostics']
" "$T_DIR/pp2.json"

# ---- item 8: one task listed three times, another twice under two names
{
    echo "$H"
    echo '1,4294967295,10,2,MatMul_10,MatMulV2,AI_CORE,1000000.0,100.0,0,20'
    echo '1,4294967295,10,2,MatMul_10,MatMulV2,AI_CORE,1000000.0,100.0,0,20'
    echo '1,4294967295,10,2,MatMul_10,MatMulV2,AI_CORE,1000000.0,100.0,0,20'
    echo '1,4294967295,11,2,FA_11,FlashAttentionScore,MIX_AIC,1000110.0,40.0,0,24'
    echo '1,4294967295,11,2,FA_11_varlen,FlashAttentionScore,MIX_AIC,1000110.0,40.0,0,24'
    echo '1,4294967295,12,2,Add_12,Add,AI_VECTOR_CORE,1000160.0,10.0,0,8'
    echo '1,4294967295,12,3,Add_12,Add,AI_VECTOR_CORE,1000160.0,10.0,0,8'
} > "$T_DIR/dup_kd.csv"
"$PR_BIN" -q --input "$T_DIR/dup_kd.csv" --json "$T_DIR/dup.json" \
    2> "$T_DIR/dup.err"
check "duplicate rows are one task each, counted once and named" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
k = {x['name']: x for x in r['kernels']}
assert k['MatMul_10']['calls'] == 1 and abs(k['MatMul_10']['total_us'] - 100) < 1e-6, k['MatMul_10']
assert 'FA_11_varlen' not in k and k['FA_11']['calls'] == 1, sorted(k)
assert k['Add_12']['calls'] == 2, k['Add_12']  # two streams: two tasks
assert abs(sum(x['total_us'] for x in r['kernels']) - 160) < 1e-6, r['kernels']
d = [x for x in r['diagnostics'] if x['kind'] == 'duplicate_task_rows']
assert len(d) == 1 and d[0]['count'] == 3, r['diagnostics']
t = d[0]['text']
assert t.startswith('3 duplicate rows of dup_kd.csv dropped'), t
assert 'Task 10 of stream 2 x2 (MatMul_10)' in t, t
assert 'Task 11 of stream 2 x1 (FA_11, also named FA_11_varlen)' in t, t
" "$T_DIR/dup.json"

# ---- item 2: an extract (ids 100 apart: 594 skipped over 7 rows) against
# a whole list (ids in a row); both carry Step Id 19
ext() {
    echo "$H"
    i=0
    while [ $i -lt 7 ]; do
        echo "19,4294967295,$(( (1 + i * $1) % 65536 )),2,MatMul_$i,MatMulV2,AI_CORE,$((1000000 + i * 1000)).0,100.0,0,20"
        i=$((i + 1))
    done
}
ext 100 > "$T_DIR/extract_kd.csv"
ext 1 > "$T_DIR/whole_kd.csv"
for n in extract whole; do
    "$PR_BIN" -q --input "$T_DIR/${n}_kd.csv" --json "$T_DIR/$n.json" \
        --html "$T_DIR/$n.html" > "$T_DIR/$n.term" 2> "$T_DIR/$n.err"
    check "$n: read" [ $? -eq 0 ]
done
check "extract: utilization, idle and the critical path not known, and why" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
d = [x for x in r['diagnostics'] if x['kind'] == 'task_list_extract']
assert len(d) == 1 and d[0]['count'] == 7, r['diagnostics']
assert 'its 7 tasks with a Stream ID skip 594 Task IDs' in d[0]['text'] and 'at least 601 tasks' in d[0]['text'], d[0]['text']
assert r['critical_path']['no_path_reason'] == 'task_list_extract', r['critical_path']
assert all(v is None for v in r['critical_path']['by_kind_us'].values()), r['critical_path']
assert r['critical_path']['steps'] == [], r['critical_path']
g = r['gpu_metrics'][0]
assert g['utilization_pct'] is None and 'extract' in g['note'], g
assert abs(g['kernel_time_us'] - 700) < 1e-6, g  # the listed tasks' time
tb = r['temporal_breakdown'][0]
assert tb['idle_pct'] is None and tb['compute_pct'] is None, tb
v = r['verdict']['text']
assert v.startswith('What bounds the device is not known: the file is an extract'), v
assert 'idle' not in v.split('not known')[0], v
assert not [x for x in r['diagnostics'] if x['kind'] == 'idle_unexplained'], r['diagnostics']
" "$T_DIR/extract.json"
check "extract: the HTML says not known, never 'sat idle'" python3 -c "
import sys
h = open(sys.argv[1]).read()
assert 'sat idle' not in h, 'sat idle'
assert 'the shares of the span and the idle time are not known' in h
assert 'not known: the task list is an extract (see Data quality)' in h
" "$T_DIR/extract.html"
check "whole list: no extract, utilization and a critical path" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert not [x for x in r['diagnostics'] if x['kind'] == 'task_list_extract'], r['diagnostics']
assert r['critical_path']['no_path_reason'] is None, r['critical_path']
assert r['gpu_metrics'][0]['utilization_pct'] > 0, r['gpu_metrics']
" "$T_DIR/whole.json"
check "Step Id 19 on every row: stepped, no 'inference run'; Parsed counts the bytes" \
    python3 -c "
import json, os, sys
s = json.load(open(sys.argv[1]))
r = s['runs'][0]
d = [x for x in r['diagnostics'] if x['kind'] == 'no_steps']
assert len(d) == 1, r['diagnostics']
assert d[0]['text'].startswith('every task row is in step 19 (its Step Id column), whose bounds the file does not give'), d[0]['text']
assert 'inference' not in json.dumps(r['diagnostics']), r['diagnostics']
assert s['inputs'][0]['bytes'] == os.path.getsize(sys.argv[2]), (s['inputs'], os.path.getsize(sys.argv[2]))
" "$T_DIR/whole.json" "$T_DIR/whole_kd.csv"

# ---- review24 #6: the same extract with two tasks of two FFTS+ contexts
# (a row per Context ID): 7 tasks on 9 rows, at least 601, not 9 and 603;
# in kernel_details and in op_summary, whose reader is another
ctx() {
    echo "$1,Context ID"
    i=0
    while [ $i -lt 7 ]; do
        id=$((1 + i * 100)) ts=$((1000000 + i * 1000))
        if [ $i -eq 2 ] || [ $i -eq 4 ]; then
            echo "19,4294967295,$id,2,NonZero_MemSet,0,AI_VECTOR_CORE,$ts.0,1.0,0,0,0"
            ts=$((ts + 3))
        fi
        echo "19,4294967295,$id,2,NonZero_$i,NonZero,MIX_AIV,$ts.0,6.0,0,16,$( [ $i -eq 2 ] || [ $i -eq 4 ] && echo 1 || echo N/A)"
        i=$((i + 1))
    done
}
ctx "$H" > "$T_DIR/ctx_kd.csv"
ctx "$(echo "$OH" | sed 's/^Device_id/Step Id/')" > "$T_DIR/op_summary_ctx.csv"
for n in ctx_kd op_summary_ctx; do
    "$PR_BIN" -q --input "$T_DIR/$n.csv" --json "$T_DIR/$n.json" \
        2> "$T_DIR/$n.err"
    check "$n: two FFTS+ contexts of a task are one task: 7 tasks on 9 rows, at least 601" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert sum(k['calls'] for k in r['kernels']) == 9, r['kernels']  # every context's time is kept
d = [x for x in r['diagnostics'] if x['kind'] == 'task_list_extract']
assert len(d) == 1 and d[0]['count'] == 7, r['diagnostics']
t = d[0]['text']
assert 'its 7 tasks with a Stream ID (9 rows: 2 tasks have two FFTS+ contexts, a row per Context ID) skip 594 Task IDs' in t, t
assert '(stream 2: 7 tasks, 594 ids skipped)' in t and 'at least 601 tasks' in t, t
v = r['verdict']['text']
assert 'at least 601 tasks by their Task IDs, of which it lists 7 with a Stream ID, on 9 rows)' in v, v
g = r['gpu_metrics'][0]['note']
assert 'at least 601 tasks' in g and 'lists 7 with a Stream ID' in g, g
" "$T_DIR/$n.json"
done

# ---- item 9: the producer's unit is the math: AI CPU and DSA tasks
{
    echo "$H"
    echo '1,4294967295,1,2,trans_Cast_5,Cast,AI_CPU,1000000.0,200.0,0,N/A'
    echo '1,4294967295,2,2,DropOutGenMask/DSAGENBITMASK,DSAGenBitMask,DSA_SQE,1000300.0,100.0,0,N/A'
    echo '1,4294967295,3,2,Cast_3,Cast,AI_VECTOR_CORE,1000500.0,50.0,0,8'
} > "$T_DIR/unit_kd.csv"
"$PR_BIN" -q --input "$T_DIR/unit_kd.csv" --json "$T_DIR/unit.json" \
    --html "$T_DIR/unit.html" 2> "$T_DIR/unit.err"
check "AI_CPU and DSA_SQE tasks: math ai_cpu and dsa, the Vector core's Cast vector" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
m = {k['name']: k['math'] for k in r['kernels']}
assert m == {'trans_Cast_5': 'ai_cpu', 'DropOutGenMask/DSAGENBITMASK': 'dsa', 'Cast_3': 'vector'}, m
b = {x['math']: x['kernels'] for x in r['kernel_classes']['by_math']}
assert b == {'ai_cpu': 1, 'dsa': 1, 'vector': 1}, b
" "$T_DIR/unit.json"
"$PR_BIN" table --kind kernels --input "$T_DIR/unit_kd.csv" > "$T_DIR/unit.txt" \
    2> /dev/null
check "the terminal's kernel table says ai_cpu and dsa" sh -c \
    'grep -q "^trans_Cast_5 .* ai_cpu " "$1" && grep -q "DSAGENBITMASK .* dsa " "$1"' \
    sh "$T_DIR/unit.txt"
check "the HTML kernel table says ai_cpu and dsa" sh -c \
    'sed "s/<wbr>//g" "$1" > "$1.txt" && grep -q "<td[^>]*>ai_cpu</td>" "$1.txt" &&
     grep -q "<td[^>]*>dsa</td>" "$1.txt"' sh "$T_DIR/unit.html"

# ---- the shared samples
D=msprof/torch_npu_ascend_profiler_output
if have_shared && [ -f "$PR_SHARED/traces/$D/kernel_details_910B_v2_pmu.csv" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/$D/kernel_details_910B_v2_pmu.csv" \
        --json "$T_DIR/v2.json" 2> /dev/null
    check "kernel_details_910B_v2_pmu: 25 tasks of 29 rows, an extract, no 'idle 100%'" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert sum(k['calls'] for k in r['kernels']) == 25, r['kernels']
m = [k for k in r['kernels'] if k['name'] == 'aclnnMatmul_MatMulV3Common_MatMulV5']
assert m[0]['calls'] == 1 and abs(m[0]['total_us'] - 521.31) < 0.01, m
kinds = {x['kind']: x for x in r['diagnostics']}
assert kinds['duplicate_task_rows']['count'] == 4, kinds
assert 'skip 18749 Task IDs' in kinds['task_list_extract']['text'], kinds['task_list_extract']
assert 'every task row is in step 19' in kinds['no_steps']['text'], kinds['no_steps']
assert r['gpu_metrics'][0]['utilization_pct'] is None, r['gpu_metrics']
assert 'idle 100%' not in r['verdict']['text'], r['verdict']
" "$T_DIR/v2.json"
    "$PR_BIN" -q --input "$PR_SHARED/traces/$D/kernel_details_910B_v1.csv" \
        --json "$T_DIR/v1.json" 2> /dev/null
    check "kernel_details_910B_v1: a whole list (205 ids skipped over 572 rows), AI CPU and DSA by their unit" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert not [x for x in r['diagnostics'] if x['kind'] in ('task_list_extract', 'duplicate_task_rows')], r['diagnostics']
assert r['gpu_metrics'][0]['utilization_pct'] > 0, r['gpu_metrics']
m = {k['name']: k['math'] for k in r['kernels']}
assert m['trans_Cast_5'] == 'ai_cpu' and m['StatelessDropOutGenMask23/DSASTATELESSGENBITMASK'] == 'dsa', m
" "$T_DIR/v1.json"
else
    skip "kernel_details_910B_v1/v2" "no $PR_SHARED/traces/$D"
fi
O=torch_npu/old2023/test_rank_0
if have_shared && [ -d "$PR_SHARED/traces/$O" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/$O" --json "$T_DIR/old.json" \
        2> /dev/null
    check "old2023 rank 0: line 17's short FlashAttentionScore row is not a 1.84 us task" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
fa = [k for k in r['kernels'] if k['name'] == 'FlashAttentionScore']
assert fa[0]['calls'] == 3 and fa[0]['min_us'] > 5000, fa
d = [x for x in r['diagnostics'] if x['kind'] == 'csv_ragged_rows']
assert d and d[0]['text'].startswith('kernel_details.csv line 17: 31 fields, header 32 (FlashAttentionScore)'), d
assert r['kernels_note'].startswith('Left out of this table: kernel_details.csv line 17 (FlashAttentionScore)'), r.get('kernels_note')
# its tasks are an extract (745 ids skipped over 16 with a stream): no
# path, and the step-table texts do not speak of one
assert r['critical_path']['no_path_reason'] == 'task_list_extract', r['critical_path']
n = [x for x in r['diagnostics'] if x['kind'] == 'tasks_incomplete'][0]['text']
assert 'critical path' not in n and 'critical path' not in r['verdict']['text'], (n, r['verdict'])
# Tasks 3183 and 3188 of stream 16 are written on two rows each (Context
# ID 0 NonZero_MemSet, 1 NonZero): 14 tasks, at least 759 (review24 #6)
t = [x for x in r['diagnostics'] if x['kind'] == 'task_list_extract'][0]['text']
assert 'its 14 tasks with a Stream ID (16 rows: 2 tasks have two FFTS+ contexts' in t, t
assert '(stream 16: 10 tasks, 733 ids skipped)' in t and 'at least 759 tasks' in t, t
" "$T_DIR/old.json"
else
    skip "old2023" "no $PR_SHARED/traces/$O"
fi
echo "1..$T_N"
