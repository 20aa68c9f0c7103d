#!/bin/sh
# cube_unit.sh - review25a #2, #3, #4, #10: what an Ascend kernel table says
# of the Cube is what the export measured.
# - #2: msprof's cube_utilization(%) is aicore_time / Duration x Block Dim /
#   the chip's AI Cores, the share of the AI Cores the task kept running:
#   the reports call it "AI Core use" ("occupancy" is CUDA's word, not an
#   NPU report's), beside a "Cube busy" column from the PMU's aic_mac_ratio,
#   and the AI Core count every task fits is block_dim.ai_cores (20 on
#   kd_910B_v2, whose FlashAttentionScoreGrad is 99% AI Core use, 0.46 busy);
#   tasks that fit different counts leave it unknown.
# - #3: a MindSpore run whose MatMul the export types FLOAT32, with no HF32
#   column, is not told "No fp32 matmul ... ran without HF32"; one whose
#   MatMul is FLOAT16 still is.
# - #4: a MatMul whose export names no unit is "Cube: -" (null, CSV
#   empty, its bar "Unit not recorded"), never "no"; an Add stays "no".
# - #10: `table --why NAME --input` runs the kernel table's own pass: an
#   Ascend LayerNorm task is CANN's norm rule (no CUDA words), a task no
#   rule names is classified by the producer's Type as the table does.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "Cube unit" "no python3"
    echo "1..$T_N"
    exit 0
fi

# ---- #2: two PMU tasks of Block Dim 16 and 20 on a 20-core chip
H='Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,Mix Block Dim,aicore_time(us),aic_total_cycles,aic_mac_ratio,aic_scalar_ratio,aic_mte2_ratio,cube_utilization(%)'
mkdir -p "$T_DIR/kd" "$T_DIR/kd2"
{
    echo "$H"
    # 100 us x 16 / 20 = 80%; 190 / 200 x 20 / 20 = 95%
    echo '1,4294967295,1,2,aclnnMm_MatMulCommon_MatMulV2,MatMulV2,AI_CORE,1000000.0,100.0,0,16,0,100.0,180000,0.5,0.2,0.9,80.0'
    echo '1,4294967295,2,2,aclnnMatmul_MatMulV3Common_MatMulV3,MatMulV3,AI_CORE,1000200.0,200.0,0,20,0,190.0,342000,0.8,0.1,0.6,95.0'
} > "$T_DIR/kd/kernel_details.csv"
"$PR_BIN" -q -i "$T_DIR/kd/kernel_details.csv" --json "$T_DIR/kd.json" \
    --html "$T_DIR/kd.html"
check "PMU kernel_details: exit 0" [ $? -eq 0 ]
check "AI Core use and Cube busy apart; 20 AI Cores from cube_utilization" \
    python3 - "$T_DIR/kd.json" "$T_DIR/kd.html" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))['runs'][0]
k = {x['name'].split('_')[-1]: x for x in r['kernels']}
fail = []
if k['MatMulV2']['cube_utilization_pct'] != 80 or k['MatMulV2']['pmu']['aic_mac_ratio'] != 0.5:
    fail.append('V2 %s' % k['MatMulV2'])
if k['MatMulV3']['cube_utilization_pct'] != 95 or abs(k['MatMulV3']['pmu']['aic_mac_ratio'] - 0.8) > 1e-6:
    fail.append('V3 %s' % k['MatMulV3'])
b = r['block_dim']
if b['ai_cores'] != 20 or 'cube_utilization' not in (b['cores_source'] or ''):
    fail.append('block_dim %s %s' % (b['ai_cores'], b['cores_source']))
h = re.sub(r'<[^>]+>', ' ', open(sys.argv[2]).read())
h = re.sub(r'\s+', ' ', h)
if 'Cube util.' in h:
    fail.append('"Cube util." label left')
for want in ('AI Core use', 'Cube busy', '80.0%', '0.50', '95.0%', '0.80'):
    if want not in h:
        fail.append('HTML lacks %r' % want)
print('\n'.join(fail))
sys.exit(1 if fail else 0)
PY
"$PR_BIN" table -q -i "$T_DIR/kd/kernel_details.csv" --kind kernels --csv \
    -c name,cube_util,cube_busy > "$T_DIR/kd.csv"
check "CSV: cube_util_pct and cube_busy columns" grep -q \
    '^aclnnMm_MatMulCommon_MatMulV2,80.00,0.5$' "$T_DIR/kd.csv"
# a third task that fits 24 cores: no count is derived
{
    cat "$T_DIR/kd/kernel_details.csv"
    echo '1,4294967295,3,2,aclnnMm_MatMulCommon_MatMulV2,MatMulV2,AI_CORE,1000500.0,100.0,0,24,0,100.0,180000,0.5,0.2,0.9,100.0'
} > "$T_DIR/kd2/kernel_details.csv"
"$PR_BIN" -q -i "$T_DIR/kd2/kernel_details.csv" --json "$T_DIR/kd2.json"
check "tasks that fit different core counts: ai_cores stays null" python3 -c "
import json, sys
b = json.load(open(sys.argv[1]))['runs'][0]['block_dim']
assert b['ai_cores'] is None and b['cores_source'] is None, b
" "$T_DIR/kd2.json"

# ---- review26a #5: a task of the vector cores alone (AI_VECTOR_CORE,
# aicore_time 0) has msprof's cube_utilization(%) and aic_* 0 by
# construction: its AI Core use and Cube busy are "-", not 0.0% / 0.00
mkdir -p "$T_DIR/kd3"
{
    cat "$T_DIR/kd/kernel_details.csv"
    echo '1,4294967295,3,2,aclnnAdd_AddAiCore_Add,Add,AI_VECTOR_CORE,1000500.0,300.0,0,40,0,0,0,0,0,0,0'
} > "$T_DIR/kd3/kernel_details.csv"
"$PR_BIN" -q -i "$T_DIR/kd3/kernel_details.csv" --json "$T_DIR/kd3.json" \
    --html "$T_DIR/kd3.html"
check "vector-core task: AI Core use and Cube busy null, the Cube tasks' kept" \
    python3 -c "
import json, sys
k = {x['name'].split('_')[-1]: x for x in json.load(open(sys.argv[1]))['runs'][0]['kernels']}
a = k['Add']
assert a['cube_utilization_pct'] is None, a
assert (a.get('pmu') or {}).get('aic_mac_ratio') is None, a
assert k['MatMulV2']['cube_utilization_pct'] == 80, k['MatMulV2']
assert k['MatMulV2']['pmu']['aic_mac_ratio'] == 0.5, k['MatMulV2']
" "$T_DIR/kd3.json"
"$PR_BIN" table -q -i "$T_DIR/kd3/kernel_details.csv" --kind kernels --csv \
    -c name,cube_util,cube_busy > "$T_DIR/kd3.csv"
check "CSV: the vector task's cube_util and cube_busy empty" grep -q \
    '^aclnnAdd_AddAiCore_Add,,$' "$T_DIR/kd3.csv"

# ---- #3 and #4: MindSpore timelines, one MatMul (400 us) and one Add
ms_run() { # dir dtype
    mkdir -p "$1"
    cat > "$1/timeline_display_1.json" << EOF
[{"name": "MatMul-op1", "ph": "X", "tid": 5, "ts": 1000.0, "dur": 400.0, "pid": 1, "args": {"type": "MatMul", "fullname": "Default/net-Dense/MatMul-op1", "input_0": {"format": "ND", "data_type": "NUMBER_TYPE_$2", "shape": "32,64"}, "input_1": {"format": "ND", "data_type": "NUMBER_TYPE_$2", "shape": "16,64"}, "output_0": {"format": "ND", "data_type": "NUMBER_TYPE_$2", "shape": "32,16"}}},
 {"name": "Add-op2", "ph": "X", "tid": 5, "ts": 1500.0, "dur": 100.0, "pid": 1, "args": {"type": "Add", "fullname": "Default/net-Dense/Add-op2", "input_0": {"format": "ND", "data_type": "NUMBER_TYPE_$2", "shape": "32,16"}, "input_1": {"format": "ND", "data_type": "NUMBER_TYPE_$2", "shape": "32,16"}, "output_0": {"format": "ND", "data_type": "NUMBER_TYPE_$2", "shape": "32,16"}}}]
EOF
}
ms_run "$T_DIR/ms32" FLOAT32
ms_run "$T_DIR/ms16" FLOAT16
"$PR_BIN" -q -i "$T_DIR/ms32" --json "$T_DIR/ms32.json" --html "$T_DIR/ms32.html"
check "MindSpore FLOAT32 MatMul: exit 0" [ $? -eq 0 ]
"$PR_BIN" -q -i "$T_DIR/ms16" --json "$T_DIR/ms16.json" --html "$T_DIR/ms16.html"
check "fp32 MatMul without an HF32 column: not 'none ran', 400 us not known" \
    python3 - "$T_DIR/ms32.json" "$T_DIR/ms32.html" "$T_DIR/ms16.json" \
    "$T_DIR/ms16.html" <<'PY'
import json, re, sys
def text(p):
    return re.sub(r'\s+', ' ', re.sub(r'<[^>]+>', ' ', open(p).read()))
fail = []
tc = json.load(open(sys.argv[1]))['runs'][0]['tensor_cores']
if tc.get('fp32_hf32_unknown_us') != 400 or tc['findings']:
    fail.append('fp32: %s' % tc)
h = text(sys.argv[2])
if 'No fp32 matmul or convolution ran without HF32' in h:
    fail.append('fp32 run told none ran')
if '400 µs of matmul and convolution work is fp32' not in h or \
        'whether it ran without HF32' not in h:
    fail.append('fp32 run: no "not known" sentence')
tc = json.load(open(sys.argv[3]))['runs'][0]['tensor_cores']
if tc.get('fp32_hf32_unknown_us') != 0:
    fail.append('fp16: %s' % tc)
# by what the export says, in its words (review26a #1)
if 'No matmul or convolution took fp32 inputs by the data types the export gives its operators, so none ran in fp32 without HF32' not in text(sys.argv[4]):
    fail.append('fp16 run lost "none ran" on its basis')
print('\n'.join(fail))
sys.exit(1 if fail else 0)
PY
check "MatMul with no unit: Cube null, Add: no; the bar says unit not recorded" \
    python3 - "$T_DIR/ms32.json" "$T_DIR/ms32.html" <<'PY'
import json, sys
k = {x['name']: x for x in json.load(open(sys.argv[1]))['runs'][0]['kernels']}
m, a = k['Default/net-Dense/MatMul-op1'], k['Default/net-Dense/Add-op2']
fail = []
if m['tensor_cores_used'] is not None or m['tensor_cores_source'] is not None:
    fail.append('MatMul %s %s' % (m['tensor_cores_used'], m['tensor_cores_source']))
if a['tensor_cores_used'] is not False:
    fail.append('Add %s' % a['tensor_cores_used'])
if 'Unit not recorded' not in open(sys.argv[2]).read():
    fail.append('no "Unit not recorded" legend')
print('\n'.join(fail))
sys.exit(1 if fail else 0)
PY
"$PR_BIN" table -q -i "$T_DIR/ms32" --kind kernels --csv -c name,tc \
    > "$T_DIR/ms.csv"
check "CSV: the MatMul's tc empty, the Add's no" python3 -c "
import csv, sys
r = {x['name']: x['tc'] for x in csv.DictReader(open(sys.argv[1]))}
assert r == {'Default/net-Dense/MatMul-op1': '', 'Default/net-Dense/Add-op2': 'no'}, r
" "$T_DIR/ms.csv"
"$PR_BIN" table -q -i "$T_DIR/ms32" --kind kernels -c name,tc -w 200 \
    > "$T_DIR/ms.txt"
check "terminal: the MatMul's Cube is '-'" grep -Eq \
    'Default/net-Dense/MatMul-op1 +-$' "$T_DIR/ms.txt"

# ---- #10: --why runs the table's pass
mkdir -p "$T_DIR/why"
{
    echo 'Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim'
    echo '1,4294967295,1,2,LayerNorm90,LayerNormV3,AI_VECTOR_CORE,1000000.0,300.0,0,40'
    echo '1,4294967295,2,2,Foo179,ApplyAdamW,AI_VECTOR_CORE,1000400.0,50.0,0,40'
} > "$T_DIR/why/kernel_details.csv"
"$PR_BIN" table -q -i "$T_DIR/why/kernel_details.csv" --kind kernels --csv \
    -c name,family,math,rule,tc > "$T_DIR/why.csv"
"$PR_BIN" table -i "$T_DIR/why/kernel_details.csv" --kind kernels \
    --why LayerNorm90 > "$T_DIR/why1.txt"
check "--why LayerNorm90 with the trace: exit 0" [ $? -eq 0 ]
"$PR_BIN" table -i "$T_DIR/why/kernel_details.csv" --kind kernels \
    --why Foo179 > "$T_DIR/why2.txt"
check "--why agrees with the kernel table, in Ascend's words" python3 - \
    "$T_DIR/why.csv" "$T_DIR/why1.txt" "$T_DIR/why2.txt" <<'PY'
import csv, sys
t = {x['name']: x for x in csv.DictReader(open(sys.argv[1]))}
fail = []
if (t['LayerNorm90']['family'], t['LayerNorm90']['rule'], t['LayerNorm90']['math']) != \
        ('norm', 'cann.types.norm', 'vector'):
    fail.append('table LayerNorm90 %s' % t['LayerNorm90'])
if (t['Foo179']['family'], t['Foo179']['rule']) != ('elementwise', ''):
    fail.append('table Foo179 %s' % t['Foo179'])
w1, w2 = open(sys.argv[2]).read(), open(sys.argv[3]).read()
for want in ('rule       cann.types.norm (', 'family     norm\n', 'math       vector',
             'cube       no', 'library    CANN'):
    if want not in w1:
        fail.append('--why LayerNorm90 lacks %r' % want)
for want in ('its producer\'s operator type ApplyAdamW is named by cann.types.elementwise',
             'family     elementwise, from the producer\'s operator type ApplyAdamW',
             'math       vector'):
    if want not in w2:
        fail.append('--why Foo179 lacks %r' % want)
for w in (w1, w2):
    for bad in ('CUDA', 'simt', 'tensor core', 'pytorch', 'family null'):
        if bad in w:
            fail.append('%r in %r' % (bad, w.splitlines()[0]))
print('\n'.join(fail))
sys.exit(1 if fail else 0)
PY
"$PR_BIN" table -i "$T_DIR/why/kernel_details.csv" --kind kernels \
    --why NoSuchKernel > /dev/null 2> "$T_DIR/why3.err"
rc=$?
check "--why a name the run lacks: an error that says so" sh -c \
    "[ $rc -ne 0 ] && grep -q \"no kernel named 'NoSuchKernel' in the input\" '$T_DIR/why3.err'"

# ---- the real samples
K=${PR_SHARED:-}/traces/msprof/torch_npu_ascend_profiler_output
if ! have_shared || [ ! -f "$K/kernel_details_910B_v1.csv" ]; then
    skip "kd_910B_v1/v2: classes and Cube busy" "no $K"
    echo "1..$T_N"
    exit 0
fi
"$PR_BIN" -q -i "$K/kernel_details_910B_v1.csv" --json "$T_DIR/v1.json"
"$PR_BIN" table -i "$K/kernel_details_910B_v1.csv" --kind kernels \
    --why LayerNorm90 > "$T_DIR/v1why.txt"
check "kd_910B_v1: no unknown family (LayerNorm, LpNorm, Softmax, FastGelu named), --why as the table" \
    python3 - "$T_DIR/v1.json" "$T_DIR/v1why.txt" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
fail = []
u = r['kernel_classes']['unknown']
if u['kernels'] != 0:
    fail.append('unknown %s' % u)
k = {x['name']: x for x in r['kernels']}
want = {'LayerNorm90': ('norm', 'cann.types.norm'),
        'LpNormReduceV2158': ('reduction', 'cann.types.lp_norm'),
        'ScaledMaskedSoftmax98': ('reduction', 'cann.types.softmax'),
        'FastGelu106': ('elementwise', 'cann.types.gelu'),
        'ArgMaxWithValue112': ('reduction', 'cann.types.argmax')}
for n, (f, rule) in want.items():
    if (k[n]['family'], k[n]['kernel_rule'], k[n]['math']) != (f, rule, 'vector'):
        fail.append('%s %s %s %s' % (n, k[n]['family'], k[n]['kernel_rule'], k[n]['math']))
w = open(sys.argv[2]).read()
if 'rule       cann.types.norm' not in w or 'pytorch' in w or 'CUDA' in w:
    fail.append(w)
print('\n'.join(fail))
sys.exit(1 if fail else 0)
PY
"$PR_BIN" -q -i "$K/kernel_details_910B_v2_pmu.csv" --json "$T_DIR/v2.json"
check "kd_910B_v2: FlashAttentionScoreGrad 99.2% AI Core use, Cube busy 0.46, 20 AI Cores" \
    python3 - "$T_DIR/v2.json" "$K/kernel_details_910B_v2_pmu.csv" <<'PY'
import csv, json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
rows = [x for x in csv.DictReader(open(sys.argv[2])) if x['Type'] == 'FlashAttentionScoreGrad']
d = sum(float(x['Duration(us)']) for x in rows)
mac = sum(float(x['aic_mac_ratio']) * float(x['Duration(us)']) for x in rows) / d
k = [x for x in r['kernels'] if x['name'].endswith('_FlashAttentionScoreGrad')][0]
fail = []
if abs(k['pmu']['aic_mac_ratio'] - mac) > 1e-3 or not (99 < k['cube_utilization_pct'] < 99.5):
    fail.append('%s %s (mac %.3f)' % (k['pmu']['aic_mac_ratio'], k['cube_utilization_pct'], mac))
if r['block_dim']['ai_cores'] != 20:
    fail.append('ai_cores %s' % r['block_dim']['ai_cores'])
print('\n'.join(fail))
sys.exit(1 if fail else 0)
PY
echo "1..$T_N"
