#!/bin/sh
# ascend_kernels_roof.sh - review28a #4, #5, #6, #7, #9, #12: what an Ascend
# run's Kernels, Cube and Roofline sections say is what the export states.
# - #4: a task's precision is its Input Data Types where the name says none
#   (DT_BF16 -> bf16, FLOAT -> fp32, FLOAT + HF32 Eligible YES -> hf32),
#   precision_source "producer"; fp32 inputs on the Cube with no HF32
#   column are not known.
# - #7: a vector-led mix task (MIX_AIV) whose AI Core time is 0 has no
#   "AI Core use" (cube_utilization(%)) or aic_* counters: null, not 0.
# - #12: a task table without operators: "no roofline" says so, not that
#   no FLOP count was recorded (aic_cube_fops is there).
# - #9: where tasks do not say what they are (torch_npu profiler_level0),
#   the Cube-eligible share is of the operators' time, HCCL's left out.
# - #5, #6: torch_npu's aten::mm carries the FLOPs, its aclnnMm child the
#   device time: the roofline lists it first by device time (not a-z), and
#   leaves its Cube point, which no roof bounds, off the chart with a note
#   instead of under the fp32 roof; npu_db1 (shared): "FP32 Vector".
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "Ascend kernels and roofline" "no python3"
    echo "1..$T_N"
    exit 0
fi

# visible text of an HTML report, one line
text() {
    python3 - "$1" <<'PY'
import html, re, sys
t = open(sys.argv[1], encoding='utf-8').read().replace('<wbr>', '')
t = re.sub(r'<(style|script)\b.*?</\1>', '', t, flags=re.S)
print(re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ', t))))
PY
}

# ---- #4, #7, #12: one kernel_details.csv
H='Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,aicore_time(us),aic_total_cycles,aic_mac_ratio,aic_cube_fops,aiv_time(us),aiv_mte2_ratio,cube_utilization(%)'
mkdir -p "$T_DIR/kd"
{
    echo "$H"
    echo '1,4294967295,1,2,aclnnMatmul_MatMulV3Common_MatMulV3,MatMulV3,AI_CORE,1000000.0,100.0,0,20,0,NO,"""64,64;64,64""",DT_BF16;DT_BF16,95.0,171000,0.7,524288,0,0,95.0'
    echo '1,4294967295,2,2,aclnnMm_MatMulCommon_MatMulV2,MatMulV2,AI_CORE,1000200.0,100.0,0,20,0,NO,"""32,64;64,64""",FLOAT;FLOAT,90.0,162000,0.2,262144,0,0,90.0'
    echo '1,4294967295,3,2,Conv2D1,Conv2D,AI_CORE,1000400.0,100.0,0,20,0,YES,"""8,3,32,32;16,3,3,3""",FLOAT;FLOAT,80.0,144000,0.5,884736,0,0,80.0'
    echo '1,4294967295,4,2,ReduceSum7,ReduceSum,MIX_AIV,1000600.0,50.0,0,40,0,NO,"""32,64""",FLOAT,0,0,0,0,40.0,0.55,0'
} > "$T_DIR/kd/kernel_details.csv"
"$PR_BIN" -q -i "$T_DIR/kd/kernel_details.csv" --json "$T_DIR/kd.json" \
    --html "$T_DIR/kd.html"
check "kernel_details: exit 0" [ $? -eq 0 ]
check "#4: precision from Input Data Types and HF32 Eligible" python3 -c "
import json, sys
k = {x['name']: x for x in json.load(open(sys.argv[1]))['runs'][0]['kernels']}
want = {'aclnnMatmul_MatMulV3Common_MatMulV3': 'bf16',
        'aclnnMm_MatMulCommon_MatMulV2': 'fp32', 'Conv2D1': 'hf32',
        'ReduceSum7': 'fp32'}
for n, p in want.items():
    assert k[n]['precision'] == p and k[n]['precision_source'] == 'producer', k[n]
" "$T_DIR/kd.json"
"$PR_BIN" table -q -i "$T_DIR/kd/kernel_details.csv" --kind kernels --csv \
    -c name,precision,cube_util,cube_busy > "$T_DIR/kd.csv"
check "#4: the table's Precision cells" sh -c "
grep -q '^aclnnMatmul_MatMulV3Common_MatMulV3,bf16,' '$T_DIR/kd.csv' &&
grep -q '^Conv2D1,hf32,' '$T_DIR/kd.csv'"
check "#7: MIX_AIV with no AI Core time: AI Core use and Cube busy empty" \
    grep -q '^ReduceSum7,fp32,,$' "$T_DIR/kd.csv"
check "#7: the Cube tasks' AI Core use kept" \
    grep -q '^Conv2D1,hf32,80.00,0.5$' "$T_DIR/kd.csv"
text "$T_DIR/kd.html" > "$T_DIR/kd.txt"
check "#4: the HTML kernel table has a Precision column with bf16" python3 -c "
import sys
t = open(sys.argv[1]).read()
assert ' Math Precision Rule AI Core use Cube busy' in t, t[:2000]
assert ' cube bf16 ' in t, t
" "$T_DIR/kd.txt"
check "#12: no roofline because the export has no operator, not no FLOPs" \
    python3 -c "
import sys
t = open(sys.argv[1]).read()
assert 'none from the tasks\' PMU counters' not in t, t
assert 'this trace records no operator' in t, t
assert 'are in the Kernels table\'s PMU column' in t, t
" "$T_DIR/kd.txt"
# fp32 on the Cube with no HF32 column: not known; off the Cube: fp32
mkdir -p "$T_DIR/kd2"
cut -d, -f1-12,14- "$T_DIR/kd/kernel_details.csv" > "$T_DIR/kd2/kernel_details.csv"
"$PR_BIN" -q -i "$T_DIR/kd2/kernel_details.csv" --json "$T_DIR/kd2.json"
check "#4: fp32 Cube tasks without an HF32 column: precision not known" \
    python3 -c "
import json, sys
k = {x['name']: x for x in json.load(open(sys.argv[1]))['runs'][0]['kernels']}
assert k['Conv2D1']['precision'] is None, k['Conv2D1']
assert k['aclnnMm_MatMulCommon_MatMulV2']['precision'] is None
assert k['aclnnMatmul_MatMulV3Common_MatMulV3']['precision'] == 'bf16'
assert k['ReduceSum7']['precision'] == 'fp32', k['ReduceSum7']
" "$T_DIR/kd2.json"

# ---- torch_npu trace_view.json: aten op > aclnn op -> its task
flow() { # id host_ts task_ts
    echo "{\"ph\": \"s\", \"bp\": \"e\", \"name\": \"torch_to_npu\", \"id\": $1, \"pid\": 10, \"tid\": 1, \"ts\": \"$2\", \"cat\": \"async_npu\"},"
    echo "{\"ph\": \"f\", \"bp\": \"e\", \"name\": \"torch_to_npu\", \"id\": $1, \"pid\": 900, \"tid\": 2, \"ts\": \"$3\", \"cat\": \"async_npu\"},"
}
op() { # name ts dur [args]
    echo "{\"ph\": \"X\", \"name\": \"$1\", \"pid\": 10, \"tid\": 1, \"ts\": \"$2\", \"dur\": $3, \"cat\": \"cpu_op\", \"args\": {\"Sequence number\": -1, \"Fwd thread id\": 0${4:-}}},"
}
task() { # name ts dur [task type]
    echo "{\"ph\": \"X\", \"name\": \"$1\", \"pid\": 900, \"tid\": 2, \"ts\": \"$2\", \"dur\": $3, \"args\": {\"Model Id\": 4294967295${4:+, \"Task Type\": \"$4\"}, \"Physic Stream Id\": 2}},"
}
meta() {
    echo '{"ph": "M", "name": "process_name", "pid": 10, "tid": 0, "args": {"name": "Python"}},'
    echo '{"ph": "M", "name": "process_name", "pid": 900, "tid": 0, "args": {"name": "Ascend Hardware"}},'
    echo '{"ph": "M", "name": "process_labels", "pid": 900, "tid": 0, "args": {"labels": "NPU"}}]'
}

# #5, #6: aten::mm (2.1 GFLOP in 100 us: 21.5 TFLOP/s, 8x the 2.76 fp32
# roof) and aten::add_ (4 FLOP in 2 us), both of device self time 0
mkdir -p "$T_DIR/tv"
{
    echo '['
    op ProfilerStep#1 1000000.000 600.0
    op aten::mm 1000010.000 50.0 ', "Input Dims": "1024,1024;\r\n1024,1024", "Input type": "float;\r\nfloat"'
    op aclnnMm 1000020.000 10.0
    flow 1000100000 1000020.000 1000100.000
    task aclnnMm_MatMulCommon_MatMulV2 1000100.000 100.0 AI_CORE
    op aten::add_ 1000300.000 20.0 ', "Input Dims": "4;\r\n4;\r\n", "Input type": "float;\r\nfloat;\r\nScalar"'
    op aclnnAdd 1000305.000 5.0
    flow 1000400000 1000305.000 1000400.000
    task aclnnAdd_AddAiCore_Add 1000400.000 2.0 AI_VECTOR_CORE
    meta
} > "$T_DIR/tv/trace_view.json"
# the 910B2's table peaks, for every device (the trace names none)
echo '{"name": "Test 910B2", "vendor": "huawei", "peak_tflops": {"fp32": 2.76, "fp16_tensor": 353.9, "bf16_tensor": 353.9, "int8_tensor": 707.8}, "peak_gbps": 1600.0}' > "$T_DIR/spec.json"
"$PR_BIN" -q -i "$T_DIR/tv/trace_view.json" --device-spec "$T_DIR/spec.json" \
    --json "$T_DIR/tv.json" --html "$T_DIR/tv.html"
check "trace_view: exit 0" [ $? -eq 0 ]
text "$T_DIR/tv.html" > "$T_DIR/tv.txt"
check "#6: the roofline's operators by device time, aten::mm first" python3 -c "
import sys
t = open(sys.argv[1]).read()
t = t[t.find('Operators with FLOP estimates'):]
assert 'By device time (its own and its CANN operators\')' in t, t[:300]
assert t.find('aten:: mm') < t.find('aten:: add_') or \
    t.find('aten::mm') < t.find('aten::add_'), t[:600]
" "$T_DIR/tv.txt"
check "#5: the Cube matmul is not drawn under the fp32 roof; a note names it" \
    python3 - "$T_DIR/tv.json" "$T_DIR/tv.html" "$T_DIR/tv.txt" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))['runs'][0]
mm = [o for o in r['operators'] if o['name'] == 'aten::mm'][0]
assert mm['achieved_tflops'] > 2.76 and mm['roofline_pct'] is None, mm
h = open(sys.argv[2], encoding='utf-8').read()
svg = h[h.find('Roofline (operators'):]
svg = svg[:svg.find('</svg>')]
assert 'aten::add_' in svg and 'aten::mm' not in svg, svg[-800:]
t = open(sys.argv[3]).read()
assert 'Not drawn: 1 Cube operator with no roof at its data type' in t, t
assert 'aten::mm (21.5 TFLOP/s)' in t, t
PY

# #9: tasks that say neither type nor unit (profiler_level0): aclnnMm 40
# us, aclnnAdd 60 us, HcclAllreduce 400 us -> 40 / 100, not 40 / 500
mkdir -p "$T_DIR/l0"
{
    echo '['
    op ProfilerStep#1 1000000.000 900.0
    op aclnnMm 1000010.000 10.0
    flow 1000100000 1000010.000 1000100.000
    task aclnnMm_MatMulCommon_MatMulV2 1000100.000 40.0
    op aclnnAdd 1000020.000 10.0
    flow 1000200000 1000020.000 1000200.000
    task aclnnAdd_AddAiCore_Add 1000200.000 60.0
    op HcclAllreduce 1000030.000 10.0
    flow 1000300000 1000030.000 1000300.000
    task hcom_allReduce__1_0 1000300.000 400.0
    meta
} > "$T_DIR/l0/trace_view.json"
"$PR_BIN" -q -i "$T_DIR/l0/trace_view.json" --json "$T_DIR/l0.json" \
    --html "$T_DIR/l0.html"
check "level0-like trace: exit 0" [ $? -eq 0 ]
text "$T_DIR/l0.html" > "$T_DIR/l0.txt"
check "#9: Cube-eligible share of the operators' time, HCCL's left out" \
    python3 - "$T_DIR/l0.json" "$T_DIR/l0.txt" <<'PY'
import json, sys
tc = json.load(open(sys.argv[1]))['runs'][0]['tensor_cores']
assert tc['eligible_basis'] == 'operators', tc
assert abs(tc['eligible_op_time_pct'] - 40.0) < 1e-6, tc
t = open(sys.argv[2]).read()
assert "Cube-eligible operator time 40.0% of the operators' device time (HCCL's left out)" in t, t
PY

# #5 on a real sample: npu_db1's fp32 roof is the Vector's
R=${PR_SHARED:-}/traces/torch_npu/db_level1
if have_shared && [ -d "$R" ]; then
    "$PR_BIN" -q -i "$R" --json "$T_DIR/db.json" --html "$T_DIR/db.html"
    check "npu_db1: the roof is FP32 Vector; the convolutions are not drawn" \
        python3 - "$T_DIR/db.json" "$T_DIR/db.html" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert [x['label'] for x in r['roofline']['roofs']] == ['FP32 Vector'], r['roofline']
h = open(sys.argv[2], encoding='utf-8').read()
svg = h[h.find('Roofline (operators'):]
svg = svg[:svg.find('</svg>')]
assert 'FP32 Vector 2.76 TFLOP/s' in svg and 'aten::conv2d' not in svg, svg[-600:]
PY
else
    skip "npu_db1 roofline" "no $R"
fi
echo "1..$T_N"
