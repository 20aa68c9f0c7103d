#!/bin/sh
# ascend_words.sh - review32a #4, #5 and #6: MindSpore and kernel-only
# Ascend exports are told in their producer's words, and a kernel that
# runs on its Scalar unit is said.
# - #5: a MindSpore run's layer note says the layer view pairs PyTorch's
#   autograd sequence numbers, which MindSpore does not write (its
#   backward is the Gradients/ scope), never "No layer has a backward
#   pass ... record_shapes=True"; its operators' shape note names
#   MindSpore's framework_raw, not record_shapes (a torch.profiler
#   option); a kernel-only export's layer note says it holds no framework
#   operators.
# - #6: a MindSpore step trace whose steps hold no compute task: the
#   Overview breakdown calls its FP+BP "FP+BP and tail", not "Other".
# - #4: a kernel whose PMU counters say Scalar-bound (aiv_scalar_ratio
#   0.99, vec and mac 0) holding 20% of the capture or more is an
#   observation naming its ratios; one under 20% is not.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "Ascend words" "no python3"
    echo "1..$T_N"
    exit 0
fi
D=$PR_SRCDIR/tests/data/mindspore/step_interval
cat > "$T_DIR/text.py" << 'PY'
import html, re, sys
t = open(sys.argv[1], encoding='utf-8').read().replace('<wbr>', '')
t = re.sub(r'<(style|script)\b.*?</\1>', '', t, flags=re.S)
print(re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ', t))))
PY

# ---- #5: a MindSpore timeline, a forward task and its Gradients/ task
mkdir -p "$T_DIR/ms"
cp "$D"/step_trace_raw_0_detail_time.csv "$D"/min_cycle_counter_0.txt \
    "$T_DIR/ms/"
python3 - "$T_DIR/ms/ascend_timeline_display_0.json" << 'PY'
import json, sys
ev = []
for s in range(3):
    t0 = 10000.0 * s
    ev.append({"name": "Conv2D-op5", "ph": "X", "tid": "5", "ts": t0 + 6200,
               "dur": 1000.0, "pid": 1,
               "args": {"type": "Conv2D",
                        "fullname": "Default/network/conv1/Conv2D-op5"}})
    ev.append({"name": "Conv2DBackpropFilterD-op9", "ph": "X", "tid": "5",
               "ts": t0 + 7500, "dur": 1000.0, "pid": 1,
               "args": {"type": "Conv2DBackpropFilterD",
                        "fullname": "Gradients/Default/network/conv1/"
                                    "gradConv2D/Conv2DBackpropFilterD-op9"}})
json.dump(ev, open(sys.argv[1], "w"))
PY
"$PR_BIN" -q -i "$T_DIR/ms" --json "$T_DIR/ms.json" --html "$T_DIR/ms.html" \
    2> "$T_DIR/ms.err"
check "MindSpore timeline: read" test $? -eq 0
python3 "$T_DIR/text.py" "$T_DIR/ms.html" > "$T_DIR/ms.txt"
check "MindSpore: the layer note names MindSpore's Gradients/ scope" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
n = r['layer_view']['note']
assert 'MindSpore does not write' in n and 'Gradients/' in n, n
assert 'record_shapes' not in n and 'No layer has a backward pass' not in n, n
" "$T_DIR/ms.json"
check "MindSpore HTML: no record_shapes, no 'No layer has a backward pass'" \
    sh -c "grep -q 'Gradients/ scope' '$T_DIR/ms.txt' &&
           grep -q 'No input shapes in this export (MindSpore.s profiler writes them in framework_raw' '$T_DIR/ms.txt' &&
           ! grep -q 'record_shapes' '$T_DIR/ms.txt' &&
           ! grep -q 'No layer has a backward pass' '$T_DIR/ms.txt'"

# ---- #6: the same step trace with no compute task in its steps
mkdir -p "$T_DIR/nt"
cp "$D"/step_trace_raw_0_detail_time.csv "$D"/min_cycle_counter_0.txt \
    "$T_DIR/nt/"
echo '[]' > "$T_DIR/nt/ascend_timeline_display_0.json"
"$PR_BIN" -q -i "$T_DIR/nt" --json "$T_DIR/nt.json" --html "$T_DIR/nt.html" \
    2> "$T_DIR/nt.err"
check "a step trace without tasks: read" test $? -eq 0
python3 "$T_DIR/text.py" "$T_DIR/nt.html" > "$T_DIR/nt.txt"
check "no tasks: the step trace times FP+BP, no compute task" python3 -c "
import json, sys
st = json.load(open(sys.argv[1]))['runs'][0]['step_trace']
assert st['compute_tasks'] is False and st['median']['fp_and_bp_us'] == 3000, st
" "$T_DIR/nt.json"
check "no tasks: the breakdown says FP+BP and tail, not Other" sh -c "
    grep -q 'Step 1 · FP+BP and tail: 4.00 ms (40.0%)' '$T_DIR/nt.txt' &&
    grep -q 'median step: FP+BP 3.00 ms, tail 1.00 ms' '$T_DIR/nt.txt' &&
    ! grep -q 'Step 1 · Other' '$T_DIR/nt.txt'"
# with the tasks, Other stays Other (the tasks say what FP+BP holds)
check "with tasks: no FP+BP and tail slice" \
    sh -c "! grep -q 'FP+BP and tail' '$T_DIR/ms.txt'"

# ---- #4 and #5: an msprof op_summary of one Scalar-bound kernel
H='Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Dim,Mix Block Dim,aicore_time(us),aic_total_cycles,aic_mac_time(us),aic_mac_ratio,aic_scalar_time(us),aic_scalar_ratio,aiv_time(us),aiv_total_cycles,aiv_vec_time(us),aiv_vec_ratio,aiv_scalar_time(us),aiv_scalar_ratio'
# sc: 2 calls of 1 ms, Scalar-bound; an Add of 0.2 ms beside them
mkdir -p "$T_DIR/sc"
{
    echo "$H"
    echo '0,4294967295,1,2,main_kernel,main_kernel,dynamic,MIX_AIC,1000000.0,1000.0,0,8,16,10.0,10000,0.0,0.0,9.0,0.9,990.0,990000,0.0,0.0,980.1,0.99'
    echo '0,4294967295,2,2,main_kernel,main_kernel,dynamic,MIX_AIC,1001100.0,1000.0,100,8,16,10.0,10000,0.0,0.0,9.0,0.9,990.0,990000,0.0,0.0,980.1,0.99'
    echo '0,4294967295,3,2,Add_1,Add,static,AI_VECTOR_CORE,1002200.0,200.0,100,8,0,0,0,0,0,0,0,200.0,200000,150.0,0.75,20.0,0.1'
} > "$T_DIR/sc/op_summary_0.csv"
"$PR_BIN" -q -i "$T_DIR/sc/op_summary_0.csv" --json "$T_DIR/sc.json" \
    --html "$T_DIR/sc.html" 2> "$T_DIR/sc.err"
check "Scalar-bound op_summary: read" test $? -eq 0
check "Scalar-bound: an observation naming the kernel and its ratios" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
o = [x for x in r.get('observations') or [] if x['id'] == 'scalar_bound']
assert len(o) == 1 and o[0]['gain_us'] is None, r.get('observations')
t = o[0]['text']
for w in ('main_kernel', 'aiv_scalar_ratio 0.990', 'aiv_vec_ratio 0.000',
          'aic_mac_ratio 0.000', 'Vectorise the inner loop'):
    assert w in t, (w, t)
assert 'Add_1' not in t, t
assert o[0]['evidence'][0]['name'] == 'main_kernel', o[0]
assert 'scalar_bound' not in [x['id'] for x in r['recommendations']]
n = r['layer_view']['note']
assert 'no framework operators' in n and 'record_shapes' not in n, n
" "$T_DIR/sc.json"
python3 "$T_DIR/text.py" "$T_DIR/sc.html" > "$T_DIR/sc.txt"
check "kernel-only export HTML: no record_shapes" \
    sh -c "! grep -q 'record_shapes' '$T_DIR/sc.txt'"
# lo: the same kernel, 0.1 ms beside 2 ms of Add: under 20%, no observation
mkdir -p "$T_DIR/lo"
{
    echo "$H"
    echo '0,4294967295,1,2,main_kernel,main_kernel,dynamic,MIX_AIC,1000000.0,100.0,0,8,16,10.0,10000,0.0,0.0,9.0,0.9,90.0,90000,0.0,0.0,89.1,0.99'
    echo '0,4294967295,2,2,Add_1,Add,static,AI_VECTOR_CORE,1000100.0,2000.0,0,8,0,0,0,0,0,0,0,2000.0,2000000,1500.0,0.75,200.0,0.1'
} > "$T_DIR/lo/op_summary_0.csv"
"$PR_BIN" -q -i "$T_DIR/lo/op_summary_0.csv" --json "$T_DIR/lo.json" \
    2> "$T_DIR/lo.err"
check "a Scalar-bound kernel under 20% of the capture: no observation" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
k = [x for x in r['kernels'] if x['name'] == 'main_kernel'][0]
assert (k.get('pmu_bound') or '').startswith('Scalar-bound'), k
ids = [x['id'] for x in r['recommendations'] + (r.get('observations') or [])]
assert 'scalar_bound' not in ids, ids
" "$T_DIR/lo.json"

# real samples: ms_run3 (step trace, no task) names its FP+BP; the
# pipeline cluster's ranks, whose step trace says no compute task but
# whose kernels and HCCL tasks cover FP+BP, keep Other
S=${PR_SHARED:-}/traces/mindspore/extra
if have_shared && [ -d "$S/run_3_profiler" ] &&
    [ -d "$S/cluster_4rank_pipeline" ]; then
    "$PR_BIN" -q -i "$S/run_3_profiler" --html "$T_DIR/r3.html" 2> /dev/null
    python3 "$T_DIR/text.py" "$T_DIR/r3.html" > "$T_DIR/r3.txt"
    check "ms_run3: its 23.7 ms step is FP+BP and tail, no record_shapes" \
        sh -c "grep -q 'FP+BP and tail: 23.7 ms (100.0%)' '$T_DIR/r3.txt' &&
               ! grep -q 'record_shapes' '$T_DIR/r3.txt'"
    "$PR_BIN" -q -i "$S/cluster_4rank_pipeline" --html "$T_DIR/c4.html" \
        2> /dev/null
    check "ms_cluster4: kernels in its steps, no FP+BP and tail slice" \
        sh -c "! grep -q 'FP+BP and tail' '$T_DIR/c4.html' &&
               ! grep -q 'record_shapes' '$T_DIR/c4.html'"
else
    skip "MindSpore samples' breakdown" "no $S"
fi

echo "1..$T_N"
