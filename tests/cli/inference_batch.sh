#!/bin/sh
# inference_batch.sh - hunt30 #5: a run whose device idles on the host,
# with its forward's GEMMs and no backward pass (vLLM, xDiT and
# Hugging Face inference captures), was told "Increasing batch size may
# affect the speed and stability of model convergence" and "retune the
# learning rate".  Such a run's larger batch is more concurrent requests
# or more samples per forward, whose cost is each request's latency; the
# What-if note names no gradient accumulation row it does not have.  The
# same trace with a backward operator keeps the training words.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "inference batch advice" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
N = 120  # launches a step: enough work not to be a near-empty capture
def trace(path, backward):
    ev, corr = [], [0]
    def launch(op, ts):
        corr[0] += 1
        c = corr[0]
        # 90 us of host work per operator, then a 20 us kernel: the
        # device idles ~80% of the step waiting for the host
        ev.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": 1,
                   "tid": 1, "ts": ts, "dur": 90, "args": {"External id": c}})
        ev.append({"ph": "X", "cat": "cuda_runtime",
                   "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                   "ts": ts + 80, "dur": 8,
                   "args": {"External id": c, "correlation": c}})
        ev.append({"ph": "X", "cat": "kernel",
                   "name": "ampere_sgemm_128x64_tn", "pid": 0, "tid": 7,
                   "ts": ts + 86, "dur": 20,
                   "args": {"External id": c, "correlation": c,
                            "device": 0, "stream": 7}})
    for s in range(3):
        t0 = s * 100 * N
        ev.append({"ph": "X", "cat": "user_annotation",
                   "name": "ProfilerStep#%d" % (s + 1), "pid": 1, "tid": 1,
                   "ts": t0, "dur": 100 * N, "args": {}})
        for i in range(N):
            op = ("autograd::engine::evaluate_function: AddmmBackward0"
                  if backward and i % 2 else "aten::addmm")
            launch(op, t0 + 100 * i)
    json.dump({"deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-40GB",
                                     "computeMajor": 8, "computeMinor": 0,
                                     "numSms": 108}],
               "traceEvents": ev}, open(path, "w"))
trace(sys.argv[1] + "/inf.json", False)
trace(sys.argv[1] + "/train.json", True)
PY

for c in inf train; do
    "$PR_BIN" -q --input "$T_DIR/$c.json" --json "$T_DIR/$c.out.json" \
        --html "$T_DIR/$c.html"
done
# the low-utilization finding's text, and the HTML as text
low() {
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
print([x for x in r['recommendations'] + r.get('observations', [])
       if x['id'] == 'low_gpu_utilization'][0]['text'])
" "$1"
}
check "no backward: a larger batch is more requests, no convergence" \
    python3 -c "
import sys
t = sys.argv[1]
assert 'no backward pass (inference)' in t and 'concurrent requests' in t, t
assert 'latency' in t, t
for w in ('convergence', 'learning rate', 'ccumulation', 'training'):
    assert w not in t, (w, t)
" "$(low "$T_DIR/inf.out.json")"
check "  its What-if note names twice the batch alone" python3 -c "
import html, re, sys
t = re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ',
    open(sys.argv[1]).read().replace('<wbr>', ''))))
assert 'Twice the batch saves per step' in t, t
assert 'gradient accumulation save' not in t, t
" "$T_DIR/inf.html"
check "a backward pass keeps the training words" python3 -c "
import sys
t = sys.argv[1]
assert 'model convergence' in t and 'retune the learning rate' in t, t
assert 'inference' not in t, t
" "$(low "$T_DIR/train.out.json")"
echo "1..$T_N"
