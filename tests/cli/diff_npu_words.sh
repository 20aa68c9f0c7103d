#!/bin/sh
# diff_npu_words.sh - review 25u #4: `diff` of Ascend runs names the
# device by the runs' kind: "gpu.utilization NPU 0", "tc.share (Cube
# share)", "NPU metrics" in the Method, never "GPU"; the metric ids stay
# the grammar's device-neutral ids (diff --help says so).  An NPU's
# utilization counts HCCL tasks, waits for a late rank included, as busy,
# so the remedy for a diff of Ascend captures without steps is a kernel:
# rule per call, not 'gpu.utilization<-5pp'.
# Hand-made: two Kineto captures (flash 400 us x4, 500 us x3) whose
# summaries say device_kind npu, against the same summaries as GPU runs.
# Real: ms_cluster4 against itself, torch_npu text_level1 vs text_level2,
# kernel_details 910B v1 vs v2.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "diff device words" "no python3"
    echo "1..$T_N"
    exit 0
fi

cap() {
    f=$1
    shift
    ts=1000000
    c=1
    {
        printf '{"schemaVersion":1,"deviceProperties":[{"id":0,"name":"NVIDIA A100-SXM4-80GB","totalGlobalMem":85097971712,"computeMajor":8,"computeMinor":0,"numSms":108}],"traceEvents":['
        sep=
        for d in "$@"; do
            printf '%s{"ph":"X","cat":"cpu_op","name":"flash","pid":1,"tid":1,"ts":%s,"dur":100,"args":{"External id":%s}}' "$sep" $((ts + 10)) "$c"
            sep=,
            printf ',{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%s,"dur":10,"args":{"correlation":%s,"External id":%s}}' $((ts + 20)) "$c" "$c"
            printf ',{"ph":"X","cat":"kernel","name":"flash_fwd_kernel","pid":0,"tid":7,"ts":%s,"dur":%s,"args":{"correlation":%s,"device":0,"stream":7,"External id":%s}}' $((ts + 40)) "$d" "$c" "$c"
            ts=$((ts + d + 1000))
            c=$((c + 1))
        done
        printf ']}\n'
    } > "$f"
}

cap "$T_DIR/a.pt.trace.json" 400 400 400 400
cap "$T_DIR/b.pt.trace.json" 500 500 500
# a collective's communication object, as the analysis writes one
printf '%s' '{"schemaVersion":1,"distributedInfo":{"backend":"nccl","rank":0,"world_size":2},"traceEvents":[{"ph":"X","cat":"cpu_op","name":"c10d::allreduce_","pid":1,"tid":1,"ts":10,"dur":100,"args":{"External id":1}},{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":20,"dur":10,"args":{"correlation":1,"External id":1}},{"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)","pid":0,"tid":7,"ts":40,"dur":50,"args":{"correlation":1,"device":0,"stream":7,"External id":1}}]}' > "$T_DIR/c.pt.trace.json"
"$PR_BIN" -q -i "$T_DIR/c.pt.trace.json" --json "$T_DIR/c.json"
for x in a b; do
    "$PR_BIN" -q -i "$T_DIR/$x.pt.trace.json" --json "$T_DIR/$x.json"
    python3 -c "
import json
s = json.load(open('$T_DIR/$x.json'))
for r in s['runs']:
    r['device_kind'] = 'npu'
json.dump(s, open('$T_DIR/${x}q.json', 'w'))
# with a collective: an NPU's utilization then counts HCCL tasks
c = json.load(open('$T_DIR/c.json'))['runs'][0]['communication']
assert c['ops'], c
for r in s['runs']:
    r['communication'] = c
json.dump(s, open('$T_DIR/${x}n.json', 'w'))
"
done

"$PR_BIN" diff -q "$T_DIR/an.json" "$T_DIR/bn.json" \
    --markdown "$T_DIR/n.md" --html "$T_DIR/n.html" --json "$T_DIR/n.json"
COLUMNS=200 "$PR_BIN" diff "$T_DIR/an.json" "$T_DIR/bn.json" \
    > "$T_DIR/n.txt" 2> "$T_DIR/n.err"
check "NPU runs: the device row reads gpu.utilization NPU 0" \
    sh -c "grep -q '^gpu.utilization NPU 0 ' '$T_DIR/n.txt' &&
        grep -q 'gpu.utilization NPU 0' '$T_DIR/n.md' &&
        grep -q 'gpu.utilization NPU 0' '$T_DIR/n.html'"
check "  the tensor-core share row is the Cube share" \
    grep -q '^tc.share (Cube share) ' "$T_DIR/n.txt"
check "  no output says GPU (terminal, Markdown, HTML)" \
    sh -c "! grep -q 'GPU' '$T_DIR/n.txt' && ! grep -q 'GPU' '$T_DIR/n.md' &&
        ! grep -q 'GPU' '$T_DIR/n.html'"
check "  the Method says NPU metrics" grep -q "Memory, NPU metrics" "$T_DIR/n.txt"
check "  the JSON keeps the metric id and says device_kind npu" \
    python3 -c "
import json
d = json.load(open('$T_DIR/n.json'))
assert d['device_kind'] == 'npu', d.get('device_kind')
m = [r for p in d['runs'] for r in p['metrics'] if r['metric'] == 'gpu.utilization']
assert m and m[0]['device_label'] == 'NPU 0', m
"
check "  the remedy is a kernel: rule per call, not gpu.utilization" \
    sh -c "tr -s ' \\n' '  ' < '$T_DIR/n.txt' | grep -q \"gate a diff of captures without steps with --fail-on 'kernel:\\*>+10%' (per call; an NPU's utilization counts HCCL waits as busy\" &&
        ! grep -q \"gpu.utilization<-5pp\" '$T_DIR/n.txt' '$T_DIR/n.err' '$T_DIR/n.md'"
check "  the headline: largest NPU change, gate on kernel:" \
    grep -q "^profreport diff: INCONCLUSIVE (.*largest NPU change gpu.utilization NPU 0 +7.9 pp (34.6% -> 42.5%), but an NPU's utilization counts HCCL waits as busy: gate a capture with --fail-on 'kernel:\*>+10%' (per call))" \
    "$T_DIR/n.txt"
# hunt31 #8: NPU runs without an HCCL task get no HCCL caveat, and the
# capture remedy names the utilization gate like a GPU's
COLUMNS=200 "$PR_BIN" diff "$T_DIR/aq.json" "$T_DIR/bq.json" \
    > "$T_DIR/q.txt" 2> /dev/null
check "  NPU runs without HCCL tasks: no HCCL caveat, the utilization hint" \
    sh -c "! grep -q HCCL '$T_DIR/q.txt' &&
        grep -q \"largest NPU change gpu.utilization NPU 0 +7.9 pp (34.6% -> 42.5%): gate a capture with --fail-on 'gpu.utilization<-5pp'\" '$T_DIR/q.txt'"
"$PR_BIN" diff -q "$T_DIR/an.json" "$T_DIR/bn.json" \
    --fail-on 'gpu.utilization<-5pp' > /dev/null 2>&1
check "  gpu.utilization stays the id an NPU rule gates on (exit 0, compared)" \
    [ $? -eq 0 ]

# one NPU a side with two ids (3 last night, 0 tonight): the note, the
# gate's line and stderr name NPUs
python3 -c "
import json
s = json.load(open('$T_DIR/an.json'))
for r in s['runs']:
    for g in r['gpu_metrics']:
        g['device'] = 3
json.dump(s, open('$T_DIR/a3n.json', 'w'))
"
COLUMNS=200 "$PR_BIN" diff "$T_DIR/a3n.json" "$T_DIR/bn.json" \
    --fail-on 'gpu.utilization>+1pp' > "$T_DIR/d.txt" 2> "$T_DIR/d.err"
check "  two NPU ids: 'NPU 3 / NPU 0' in the gate line and on stderr" \
    sh -c "grep -q 'compare NPU 3 (baseline) with NPU 0 (current)' '$T_DIR/d.txt' &&
        grep -q 'gpu.utilization NPU 3 / NPU 0 \[' '$T_DIR/d.txt' &&
        grep -q 'gpu.utilization NPU 3 / NPU 0 \[' '$T_DIR/d.err' &&
        ! grep -q GPU '$T_DIR/d.txt' '$T_DIR/d.err'"

# the same summaries as GPU runs keep their GPU words
COLUMNS=200 "$PR_BIN" diff "$T_DIR/a.json" "$T_DIR/b.json" \
    > "$T_DIR/g.txt" 2> /dev/null
check "GPU runs: gpu.utilization GPU 0, tc.share, the gpu.utilization hint" \
    sh -c "grep -q '^gpu.utilization GPU 0 ' '$T_DIR/g.txt' &&
        grep -q '^tc.share  ' '$T_DIR/g.txt' && ! grep -q NPU '$T_DIR/g.txt' &&
        grep -q \"largest GPU change gpu.utilization GPU 0 +7.9 pp (34.6% -> 42.5%): gate a capture with --fail-on 'gpu.utilization<-5pp'\" '$T_DIR/g.txt'"

"$PR_BIN" diff --help > "$T_DIR/help.txt" 2>&1
check "diff --help: gpu.* and tc.share are device-neutral ids" \
    sh -c "tr -s ' \\n' '  ' < '$T_DIR/help.txt' | grep -q 'gpu.\\* and tc.share are device-neutral ids: on an Ascend NPU, its utilization and the Cube share'"

# real Ascend pairs
if have_shared && shared_summary c4 mindspore/extra/cluster_4rank_pipeline; then
    "$PR_BIN" diff -q "$T_DIR/c4.json" "$T_DIR/c4.json" \
        --markdown "$T_DIR/c4.md" --html "$T_DIR/c4.html"
    COLUMNS=200 "$PR_BIN" diff "$T_DIR/c4.json" "$T_DIR/c4.json" \
        > "$T_DIR/c4.txt" 2> /dev/null
    check "ms_cluster4 against itself: NPU 0..3, no GPU in any output" \
        sh -c "[ \$(grep -Ec '^gpu.utilization NPU [0-3] +[0-9]' '$T_DIR/c4.txt') -eq 4 ] &&
            ! grep -q GPU '$T_DIR/c4.txt' && ! grep -q GPU '$T_DIR/c4.md' &&
            ! grep -q GPU '$T_DIR/c4.html'"
else
    skip "ms_cluster4 self diff" "no ../shared mindspore sample"
fi
if have_shared && shared_summary t1 torch_npu/text_level1 &&
    shared_summary t2 torch_npu/text_level2; then
    COLUMNS=200 "$PR_BIN" diff "$T_DIR/t1.json" "$T_DIR/t2.json" \
        > "$T_DIR/t.txt" 2> /dev/null
    check "text_level1 vs text_level2: NPU 0 81.2% -> 80.7%, Cube share 31.6% -> 32.0%" \
        sh -c "grep -Eq '^gpu.utilization NPU 0 +81.2% +80.7% ' '$T_DIR/t.txt' &&
            grep -Eq '^tc.share \\(Cube share\\) +31.6% +32.0% ' '$T_DIR/t.txt' &&
            ! grep -q GPU '$T_DIR/t.txt'"
else
    skip "torch_npu text_level1 vs 2" "no ../shared torch_npu samples"
fi
K=msprof/torch_npu_ascend_profiler_output
if have_shared && shared_summary k1 $K/kernel_details_910B_v1.csv &&
    shared_summary k2 $K/kernel_details_910B_v2_pmu.csv; then
    COLUMNS=200 "$PR_BIN" diff -b "$T_DIR/k1.json" -i "$T_DIR/k2.json" \
        > "$T_DIR/k.txt" 2> "$T_DIR/k.err"
    check "kernel_details 910B v1 vs v2: the remedy is kernel:, no GPU" \
        sh -c "grep -q \"captures without steps with --fail-on 'kernel:\\*>+10%' (per call; an NPU\" '$T_DIR/k.err' &&
            ! grep -q 'gpu.utilization<-5pp' '$T_DIR/k.txt' '$T_DIR/k.err' &&
            ! grep -q GPU '$T_DIR/k.txt'"
else
    skip "kernel_details 910B v1 vs v2" "no ../shared msprof samples"
fi
echo "1..$T_N"
