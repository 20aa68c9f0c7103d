#!/bin/sh
# ascend_kernels_roof.sh - review28a #4, #7: what an Ascend run's Kernels
# table says is what the export states.
# - #4: a task's precision is its Input Data Types where the name says none
#   (DT_BF16 -> bf16, FLOAT -> fp32, FLOAT + HF32 Eligible YES -> hf32),
#   precision_source "producer"; fp32 inputs on the Cube with no HF32
#   column are not known.
# - #7: a vector-led mix task (MIX_AIV) whose AI Core time is 0 has no
#   "AI Core use" (cube_utilization(%)) or aic_* counters: null, not 0.
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

# ---- #4, #7: one kernel_details.csv
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

echo "1..$T_N"
