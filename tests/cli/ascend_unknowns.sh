#!/bin/sh
# ascend_unknowns.sh - review 22a #3, #7, #10, #12, #13: what a trace does
# not measure is shown as not known, never as 0 or 100%, and the views say
# nothing false.  Small inputs written here, then the shared samples.
#  #3  a device whose tasks are HCCL's only while the producer's step table
#      counts computation: compute and idle null, the table's
#      computation_time shown with its source, no "sat idle" sentence
#  #7  where the run's Cube share is not known, every operator's
#      tc_self_pct / tc_total_pct is null ("–"), not 0
#  #10 a rank of a job with no communication in its trace: the Ranks
#      table's communication_pct null, not 0
#  #12 no operators: the Cube-eligible share is the tasks' own, labelled so
#  #13 the by-shape table of a trace without shapes, MindSpore's parallel
#      strategy and profiler metadata named, the cluster table's own
#      column name, operators across ranks without device self time
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "ascend unknowns" "no python3"
    echo "1..$T_N"
    exit 0
fi

# the plain text of an HTML report, one line
cat > "$T_DIR/text.py" << 'PY'
import html, re, sys
t = open(sys.argv[1], encoding='utf-8').read().replace('<wbr>', '')
t = re.sub(r'<(script|style)[^>]*>.*?</\1>', ' ', t, flags=re.S)
print(re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ', t))))
PY

# ---- #3: a MindSpore cluster export of one rank: an AllReduce of 1 ms in
# each of two 10 ms steps (step_trace_raw, 10 ns units) and a cluster table
# whose computation_time is 8 ms a step
C=$T_DIR/cluster
mkdir -p "$C"
cat > "$C/step_trace_raw_0_detail_time.csv" << 'EOF'
step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail,stream_11_0_AllReduce-op1,stream_11_0_AllReduce-op1_start_point,stream_11_0_AllReduce-op1_end_point
1,1000000,2000000,1000000,1000000,1900000,0,900000,100000,100000,1100000,1200000
2,2000000,3000000,1000000,2000000,2900000,0,900000,100000,100000,2100000,2200000
EOF
cat > "$C/ascend_cluster_analyse_model-parallel_1_1_0.csv" << 'EOF'
computation_time,communication_alone_time,stage_time,receive_alone_time,collective_communication_alone_time
8.0,1.0,9.0,0,1.0
8.0,1.0,9.0,0,1.0
8.0,1.0,9.0,0,1.0
EOF
"$PR_BIN" -q --input "$C" --json "$T_DIR/c.json" --html "$T_DIR/c.html"
check "#3 cluster export: exit 0" [ $? -eq 0 ]
python3 "$T_DIR/text.py" "$T_DIR/c.html" > "$T_DIR/c.txt"
check "#3 HCCL tasks only: compute and idle null, communication measured, a note" \
    python3 -c "
import json, sys
tb = json.load(open(sys.argv[1]))['runs'][0]['temporal_breakdown'][0]
for k in ('compute_us', 'compute_pct', 'idle_us', 'idle_pct', 'idle_other_us',
          'device_span_idle_us', 'device_span_idle_pct'):
    assert tb[k] is None, (k, tb)
assert tb['communication_us'] == 2000 and tb['communication_pct'] == 10, tb
assert 'compute and idle are not known' in tb['note'], tb
" "$T_DIR/c.json"
check "#3 HTML: computation_time with its source, no 'sat idle'" python3 -c "
import sys
t = open(sys.argv[1]).read()
want = ('Device 0 over the steps (20.0 ms): compute and idle are not known. '
        'Its export holds HCCL tasks only (communication 10.0% of the window), '
        'no compute task, while MindSpore\'s cluster table '
        '(ascend_cluster_analyse_*.csv, column computation_time) counts '
        'computation of 16.0 ms over these 2 steps')
assert want in t, t[t.find('Device time'):][:900]
assert 'sat idle' not in t, t
" "$T_DIR/c.txt"

# a device with a compute task keeps its measured split: the same export
# with the table's computation_time 0 (nothing to say it is elsewhere)
mkdir -p "$T_DIR/c0"
cp "$C/step_trace_raw_0_detail_time.csv" "$T_DIR/c0/"
sed 's/^8\.0,/0,/' "$C/ascend_cluster_analyse_model-parallel_1_1_0.csv" \
    > "$T_DIR/c0/ascend_cluster_analyse_model-parallel_1_1_0.csv"
"$PR_BIN" -q --input "$T_DIR/c0" --json "$T_DIR/c0.json"
check "#3 no computation in the table: idle stays measured" python3 -c "
import json, sys
tb = json.load(open(sys.argv[1]))['runs'][0]['temporal_breakdown'][0]
assert tb['compute_pct'] == 0 and tb['idle_pct'] == 90 and tb['note'] is None, tb
" "$T_DIR/c0.json"

# ---- #7 and #13 (shapes): a trace_view.json alone names no unit of its
# tasks, and records no input shape
D=$PR_SRCDIR/tests/data/ascend/packed_pid/trace_view.json
"$PR_BIN" -q --input "$D" --json "$T_DIR/tv.json" --html "$T_DIR/tv.html"
python3 "$T_DIR/text.py" "$T_DIR/tv.html" > "$T_DIR/tv.txt"
check "#7 Cube share not known: aten::matmul's Cube self and total null" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['tensor_cores']['tc_kernel_time_pct'] is None, r['tensor_cores']
ops = r['operators'] + r['operators_by_shape']
assert any(o['name'] == 'aten::matmul' for o in ops), ops
for o in ops:
    assert o['tc_self_pct'] is None and o['tc_total_pct'] is None, o
" "$T_DIR/tv.json"
check "#13 no input shapes recorded: the note, not a copy of the by-name table" \
    python3 -c "
import sys
t = open(sys.argv[1]).read()
assert 'No input shapes in this trace (record_shapes=True records them).' in t, t
ops = t[t.index('Operators Top operators'):t.index('Source Operator time')]
assert 'aten::matmul 1 20.0' in ops and ' [] ' not in ops, ops
" "$T_DIR/tv.txt"

# ---- #12: a kernel_details.csv without operators: a 30 us MatMul on the
# AI Core and a 10 us Add on the Vector core
K=$T_DIR/kernel_details.csv
cat > "$K" << 'EOF'
Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,Mix Block Dim,Input Shapes,Input Data Types,Input Formats,Output Shapes,Output Data Types,Output Formats
1,4294967295,1,2,MatMul1,MatMul,AI_CORE,1000000.000,30.000,0,20,0,"""64,64;64,64""",DT_BF16;DT_BF16,ND;ND,"""64,64""",DT_BF16,ND
1,4294967295,2,2,Add1,Add,AI_VECTOR_CORE,1000040.000,10.000,0,20,0,"""64,64;64,64""",DT_BF16;DT_BF16,ND;ND,"""64,64""",DT_BF16,ND
EOF
"$PR_BIN" -q --input "$K" --json "$T_DIR/k.json" --html "$T_DIR/k.html"
python3 "$T_DIR/text.py" "$T_DIR/k.html" > "$T_DIR/k.txt"
check "#12 no operators: the eligible share is the tasks', and says so" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
tc = r['tensor_cores']
assert r['operators'] == [], r['operators']
assert tc['eligible_op_time_pct'] == 75 and tc['eligible_on_tc_pct'] == 100, tc
t = open(sys.argv[2]).read()
assert 'Cube-eligible task time 75.0% of compute task time, in tasks whose operator type runs on the Cube' in t, t  # no HCCL task: HCCL not named (issue #30 #3)
assert 'Cube-eligible operator time' not in t, t
" "$T_DIR/k.json" "$T_DIR/k.txt"

# ---- #10: two ranks of a job; rank 0 runs an NCCL all-reduce, rank 1 no
# communication at all
for r in 0 1; do
    extra=
    [ $r -eq 0 ] && extra=',
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1065, "dur": 5, "args": {"correlation": 3}},
  {"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float", "pid": 0, "tid": 8, "ts": 1070, "dur": 20, "args": {"correlation": 3, "stream": 8, "device": 0}}'
    cat > "$T_DIR/rank$r.json" << EOF
{"distributedInfo": {"backend": "nccl", "rank": $r, "world_size": 2},
 "deviceProperties": [{"id": 0, "name": "NVIDIA A100"}],
 "traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 1000, "dur": 100},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 1100, "dur": 100},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1005, "dur": 5, "args": {"correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": 1020, "dur": 40, "args": {"correlation": 1, "stream": 7, "device": 0}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1105, "dur": 5, "args": {"correlation": 2}},
  {"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": 1120, "dur": 40, "args": {"correlation": 2, "stream": 7, "device": 0}}$extra
 ]}
EOF
done
"$PR_BIN" -q --input "$T_DIR/rank0.json" --input "$T_DIR/rank1.json" \
    --json "$T_DIR/j.json"
check "#10 a rank without communication in its trace: communication_pct null" \
    python3 -c "
import json, sys
pr = {p['worker']: p for p in json.load(open(sys.argv[1]))['job']['per_rank']}
assert pr['rank1']['communication_pct'] is None, pr
assert pr['rank0']['communication_pct'] is not None and pr['rank0']['communication_pct'] > 0, pr
" "$T_DIR/j.json"

# ---- #13: MindSpore's parallel strategy and profiler metadata
mkdir -p "$T_DIR/ps"
printf '{\n  "config" : { "rankId" : 0, "stageId" : 0, "parallelType" : "auto_parallel" },\n  "graph" : { "node" : [] }\n}\n' \
    > "$T_DIR/ps/parallel_strategy_0.json"
printf '{"context_mode": "graph", "rank_id": "0", "rank_size": 2, "parallel_mode": "auto_parallel", "stage_num": 1}\n' \
    > "$T_DIR/ps/profiler_info_0.json"
"$PR_BIN" --input "$T_DIR/ps" --json "$T_DIR/ps.json" 2> "$T_DIR/ps.err"
rc=$?
check "#13 MindSpore side files only: exit 2, no summary" \
    [ $rc -eq 2 ] && [ ! -e "$T_DIR/ps.json" ]
check "#13 parallel strategy and profiler metadata named for what they are" \
    python3 -c "
import sys
e = open(sys.argv[1]).read()
assert 'parallel_strategy_0.json: MindSpore parallel strategy (the operators\' sharding, no timings): not read; give the profiler\'s output folder' in e, e
assert 'profiler_info_0.json: MindSpore profiler metadata (rank, parallel mode, no timings): not read' in e, e
assert 'traceEvents' not in e, e
" "$T_DIR/ps.err"

# ---- the shared samples
S=${PR_SHARED:-}/traces
if shared_report cl mindspore/extra/cluster_4rank_pipeline; then
    python3 "$T_DIR/text.py" "$T_DIR/cl.html" > "$T_DIR/cl.txt"
    check "ms_cluster4: rank 2's compute and idle not known, its 615.7 ms of computation_time shown" \
        python3 -c "
import csv, glob, json, os, sys
s = json.load(open(sys.argv[1]))
t = open(sys.argv[3]).read()
for r in s['runs']:
    tb = r['temporal_breakdown'][0]
    assert tb['compute_pct'] is None and tb['idle_pct'] is None, tb
    rows = list(csv.DictReader(open(glob.glob(os.path.join(sys.argv[2], 'ascend_cluster_analyse_*_%d.csv' % r['rank']))[0])))
    comp = sum(float(x['computation_time']) for x in rows[:5])
    if r['rank'] == 2:
        assert abs(comp - 615.7) < 0.1, comp
    want = 'counts computation of %.3g ms over these 5 steps' % comp
    # the report shows some ranks' parts (rank 2's among them)
    if r['rank'] == 2 or 'Device %d over the steps' % r['rank'] in t:
        assert want in t, (want, r['rank'])
assert 'sat idle' not in t
# #13: the column the user finds in the CSV
assert 'collective_communication_alone_time' in t
assert 'communication_not_overlapped_exclude_receive;' not in t
assert 'communication_not_overlapped_exclude_receive;' not in open(sys.argv[4]).read()
" "$T_DIR/cl.json" "$S/mindspore/extra/cluster_4rank_pipeline" "$T_DIR/cl.txt" "$T_DIR/cl.term"
else
    skip "ms_cluster4: compute and idle not known" "no $S/mindspore/extra/cluster_4rank_pipeline"
fi

if shared_report r2 mindspore/ascend_run2 && shared_report t1 torch_npu/text_level1; then
    check "ms_run2: MatMul's Cube self null; text_level1 (units known) keeps its shares" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
mm = [o for o in r['operators'] if o['name'] == 'MatMul']
assert mm and all(o['tc_self_pct'] is None for o in mm), mm
assert all(o['tc_self_pct'] is None for o in r['operators'])
for r in json.load(open(sys.argv[2]))['runs']:
    assert r['tensor_cores']['tc_kernel_time_pct'] is not None
    assert all(o['tc_self_pct'] is not None for o in r['operators'] if o['device_self_us'])
" "$T_DIR/r2.json" "$T_DIR/t1.json"
else
    skip "ms_run2 / text_level1: Cube self" "no shared samples"
fi

if shared_report fx mindspore/fixtures; then
    check "ms_fixtures: no rank of job fixtures has a communication figure" \
        python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
j = [x for x in s['jobs'] if x['name'] == 'fixtures'][0]['job']
assert len(j['per_rank']) == 3, j['per_rank']
for p in j['per_rank']:
    assert p['communication_pct'] is None, p
" "$T_DIR/fx.json"
else
    skip "ms_fixtures: communication" "no $S/mindspore/fixtures"
fi

if shared_report o23 torch_npu/old2023; then
    python3 "$T_DIR/text.py" "$T_DIR/o23.html" > "$T_DIR/o23.txt"
    check "old2023: operators across ranks are not ranked by a device self time of 0" \
        python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))['job']
assert j['operators'] and all(o['max_device_self_us'] == 0 for o in j['operators']), j['operators']
t = open(sys.argv[2]).read()
assert 'Operators across ranks The ranks\' operator tables give no device self time' in t, t[t.find('Operators across'):][:300]
" "$T_DIR/o23.json" "$T_DIR/o23.txt"
else
    skip "old2023: operators across ranks" "no $S/torch_npu/old2023"
fi

echo "1..$T_N"
