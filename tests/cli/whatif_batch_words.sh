#!/bin/sh
# whatif_batch_words.sh - review26a #3 (npu_trace_view): the twice-the-batch
# finding's words are true for what the run has.  On one device without a
# collective it names no collectives and no communication finding's
# gradient accumulation; where the trace holds no memory record it says
# whether twice the batch fits is not known; where the per-call work it
# spreads is aclop calls that op_compile's replay shortens, it says the two
# gains overlap (npu_trace_view: AscendCL@aclopCompileAndExecute, 5.8 ms on
# the path, 3.3 ms off in op_compile's replay).
#
# lu: 3 steps of 2 ms, each 40 aten::add of 45 us launching a 20 us
# kernel (the device 40% busy): twice the batch doubles the kernels and
# keeps the dispatch.  lu_mem: the same with a [memory] record.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "twice the batch's words" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
d = sys.argv[1]
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
def K(name, ts, dur, corr):
    return X("kernel", name, ts, dur, pid=0, tid=7, correlation=corr,
             device=0, stream=7)
def mem(ts, b, total):
    return {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1,
            "ts": ts, "args": {"Device Type": 1, "Device Id": 0, "Bytes": b,
                               "Addr": 200, "Total Allocated": total,
                               "Total Reserved": 1 << 30}}
props = [{"id": 0, "name": "NVIDIA A100-SXM4-40GB", "totalGlobalMem": 40e9,
          "computeMajor": 8, "computeMinor": 0, "numSms": 108}]
ev = []
for s in range(3):
    t0 = s * 2000
    ev.append(X("user_annotation", "ProfilerStep#%d" % (s + 1), t0, 2000))
    for i in range(40):
        t, c = t0 + i * 50, s * 100 + i + 1
        ev += [X("cpu_op", "aten::add", t, 45),
               X("cuda_runtime", "cudaLaunchKernel", t + 40, 5, correlation=c),
               K("vectorized_elementwise_kernel", t + 46, 20, c)]
json.dump({"deviceProperties": props, "traceEvents": ev},
          open(d + "/lu.pt.trace.json", "w"))
ev += [mem(5, 1 << 20, 1 << 20), mem(5990, -(1 << 20), 0)]
json.dump({"deviceProperties": props, "traceEvents": ev},
          open(d + "/lu_mem.pt.trace.json", "w"))
PY
for c in lu lu_mem; do
    "$PR_BIN" -q --input "$T_DIR/$c.pt.trace.json" --json "$T_DIR/$c.json" \
        2> "$T_DIR/$c.err"
    check "$c: exits 0" [ $? -eq 0 ]
done
check "one GPU, no collective: twice the batch names no collectives, says memory is not known" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
f = {x['id']: x for x in r['recommendations']}['low_gpu_utilization']
assert f['gain_basis'] == 'samples' and f['gain_pct'] > 1, f
t = f['text']
assert 'Here twice the batch replays to' in t, t
assert 'collective' not in t and 'communication finding' not in t, t
assert 'gradient accumulation' not in t, t
assert 'the host' + chr(39) + 's dispatch stays the same for twice the samples' in t, t
assert r['memory'] is None, r['memory']
assert 'The trace holds no memory record (profile_memory=True records one), so whether twice the batch fits in device memory is not known.' in t, t
assert 'aclop' not in t, t
" "$T_DIR/lu.json"
check "with a memory record: no 'not known' sentence" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['memory'] is not None
t = {x['id']: x for x in r['recommendations']}['low_gpu_utilization']['text']
assert 'Here twice the batch replays to' in t and 'no memory record' not in t, t
" "$T_DIR/lu_mem.json"
"$PR_BIN" --input "$T_DIR/lu.pt.trace.json" > "$T_DIR/lu.term" 2> /dev/null
check "terminal: twice the batch's evidence is the per-call work it spreads, not what it changed" \
    grep -q "^     per-call work on the path it spreads: aten::add" "$T_DIR/lu.term"

NV=msprof/torch_npu_ascend_profiler_output/trace_view.json
if have_shared && [ -f "$PR_SHARED/traces/$NV" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/$NV" --json "$T_DIR/nv.json" \
        2> /dev/null
    check "npu_trace_view: one NPU, no collectives named; the aclop overlap and memory said" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
recs = {x['id']: x for x in r['recommendations']}
t = recs['low_gpu_utilization']['text']
a = {x['id']: x for x in r['critical_path']['what_if']}['aclop_binary']
assert 'collective' not in t and 'communication finding' not in t, t
assert 'Of that per-call work, 5.8 ms on the path is aclop calls, which the op_compile finding' + chr(39) + 's replay shortens by %.1f ms' % (a['gain_us'] / 1000) in t, t
assert 'the two gains overlap' in t, t
assert 'whether twice the batch fits in device memory is not known' in t, t
" "$T_DIR/nv.json"
else
    skip "npu_trace_view's batch words" "no $PR_SHARED/traces/$NV"
fi
echo "1..$T_N"
