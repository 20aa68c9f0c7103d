#!/bin/sh
# inference_comm.sh - a run with its forward's GEMMs and no backward pass
# (an inference server's tensor-parallel all-reduces, review 28h #6: vLLM
# on MI300X was told "You could try Gradient Compression or Gradient
# Accumulation") gets communication advice about activations, and no
# gradient-accumulation replay; the same trace with a backward operator
# keeps TensorBoard's sentence.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "inference communication advice" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
def trace(path, backward, dev="NVIDIA A100-SXM4-40GB", major=8, minor=0):
    ev, corr = [], [0]
    def launch(op, ts, kname, kts, kdur):
        corr[0] += 1
        c = corr[0]
        ev.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": 1,
                   "tid": 1, "ts": ts, "dur": 20,
                   "args": {"External id": c}})
        ev.append({"ph": "X", "cat": "cuda_runtime",
                   "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                   "ts": ts + 5, "dur": 5,
                   "args": {"External id": c, "correlation": c}})
        ev.append({"ph": "X", "cat": "kernel", "name": kname, "pid": 0,
                   "tid": 7, "ts": kts, "dur": kdur,
                   "args": {"External id": c, "correlation": c,
                            "device": 0, "stream": 7}})
    for s in range(3):
        t0 = s * 1000
        ev.append({"ph": "X", "cat": "user_annotation",
                   "name": "ProfilerStep#%d" % (s + 1), "pid": 1, "tid": 1,
                   "ts": t0, "dur": 1000, "args": {}})
        launch("aten::mm", t0 + 10, "ampere_sgemm_128x64_tn", t0 + 40, 300)
        launch("nccl:all_reduce", t0 + 40, "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
               t0 + 350, 400)
        # the host waits for the step's device work (so the path runs
        # through the device, not through unrecorded host time)
        ev.append({"ph": "X", "cat": "cuda_runtime",
                   "name": "cudaDeviceSynchronize", "pid": 1, "tid": 1,
                   "ts": t0 + 100, "dur": 880, "args": {}})
        if backward:
            launch("autograd::engine::evaluate_function: MmBackward0",
                   t0 + 70, "ampere_sgemm_64x64_nn", t0 + 760, 200)
    json.dump({"deviceProperties": [{"id": 0, "name": dev,
                                     "computeMajor": major,
                                     "computeMinor": minor,
                                     "numSms": 108}],
               "distributedInfo": {"backend": "nccl", "rank": 0,
                                   "world_size": 2},
               "traceEvents": ev}, open(path, "w"))
trace(sys.argv[1] + "/inf.json", False)
trace(sys.argv[1] + "/train.json", True)
# the same job on ROCm: PyTorch's "nccl" backend runs RCCL there
trace(sys.argv[1] + "/train_amd.json", True, "AMD Instinct MI300X", 9, 4)
PY

"$PR_BIN" -q --input "$T_DIR/inf.json" --json "$T_DIR/inf.out.json"
"$PR_BIN" -q --input "$T_DIR/train.json" --json "$T_DIR/train.out.json"
"$PR_BIN" -q --input "$T_DIR/train_amd.json" --json "$T_DIR/amd.out.json"
check "no backward: activations, not gradients; no accumulation replay" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
c = [x for x in r['recommendations'] + r.get('observations', [])
     if x['id'] == 'communication']
assert c, [x['id'] for x in r['recommendations']]
t = c[0]['text']
assert 'Gradient Compression' not in t and 'ccumulation' not in t, t
assert 'no backward pass' in t and 'activations' in t, t
n = c[0].get('gain_note') or ''
assert 'optimizer' not in n and 'backward' not in n, n
w = [x['id'] for x in (r['critical_path'] or {}).get('what_if') or []]
assert 'gradient_accumulation' not in w, w
" "$T_DIR/inf.out.json"
check "a backward pass keeps TensorBoard's sentence" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
c = [x for x in r['recommendations'] + r.get('observations', [])
     if x['id'] == 'communication']
assert c and 'You could try Gradient Compression' in c[0]['text'], c
" "$T_DIR/train.out.json"
# hunt30 #9: the why-no-estimate note named gloo on an RCCL job; it
# names the run's own library (the nccl backend: NCCL on an NVIDIA
# device, RCCL on an AMD one), whose kernels hold their wait
comm_note() {
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
c = [x for x in r['recommendations'] + r.get('observations', [])
     if x['id'] == 'communication'][0]
n = c['gain_note'] or ''
assert 'gloo' not in n, n
assert (sys.argv[2] + \"'s kernels do not tell apart\") in n, n
assert (sys.argv[2] + \"'s kernels wait for late peers\") in n, n
" "$1" "$2"
}
check "the note names NCCL on an NVIDIA job, not gloo" \
    comm_note "$T_DIR/train.out.json" NCCL
check "  RCCL on an AMD one" comm_note "$T_DIR/amd.out.json" RCCL
# hunt30 #5: a run with no backward pass is told of no training step
check "no backward: host syncs in the serving loop, not the training step" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
t = [x for x in r['recommendations'] + r.get('observations', [])
     if x['id'] == 'host_sync'][0]['text']
assert 'serving loop' in t and 'training step' not in t, t
" "$T_DIR/inf.out.json"
check "  a backward pass keeps the training step" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
t = [x for x in r['recommendations'] + r.get('observations', [])
     if x['id'] == 'host_sync'][0]['text']
assert 'in the training step' in t and 'serving loop' not in t, t
" "$T_DIR/train.out.json"
echo "1..$T_N"
