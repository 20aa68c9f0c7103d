#!/bin/sh
# graph_capture.sh - hunt30 #6: a trace that records CUDA/HIP graphs being
# captured (cudaStreamBeginCapture ... cudaStreamEndCapture, then
# cudaGraphInstantiate: torch.cuda.graph, vLLM's and SGLang's start-up
# capture) is a one-time warm-up, not a steady iteration: the verdict and
# the cold_step finding say so, launches.graph_captures counts the
# captures, and no batch (low_gpu_utilization, twice-the-batch row) or
# sync (host_sync) advice is given (vLLM's piecewise capture of 25 graphs
# read "twice the batch saves 50%").  The same calls without the capture
# get that advice.  Hand-made Kineto traces.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "graph capture" "python3 is needed"
    echo "1..$T_N"
    exit 0
fi

field() {
    python3 - "$1" "$2" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
w = {x["id"]: x for x in r["critical_path"]["what_if"] or []}
rec = {x["id"]: x for x in r["recommendations"] + (r.get("observations") or [])}
print(eval(sys.argv[2]))
PY
}

python3 - "$T_DIR" << 'PY'
import json, sys
d = sys.argv[1]
ms = 1000.0

def X(cat, name, ts, dur, tid=1, pid=7, **a):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": a}

def trace(path, capture):
    ev, c, t = [], 0, 0
    # an eager warm-up run: 10 small kernels with host work between
    for k in range(10):
        ev.append(X("cpu_op", "aten::mm", t, 2 * ms))
        c += 1
        ev.append(X("cuda_runtime", "cudaLaunchKernel", t + 1 * ms, 20,
                    correlation=c))
        ev.append(X("kernel", "gemm_kernel", t + 1 * ms + 30, 200, pid=0,
                    tid=7, correlation=c, device=0, stream=7))
        t += 2.1 * ms
    if capture:
        ev.append(X("cuda_runtime", "cudaStreamBeginCapture", t, 10))
    t += 20
    # the capture: launches recorded into the graph, no kernel runs
    for k in range(10):
        ev.append(X("cpu_op", "aten::mm", t, 1 * ms))
        c += 1
        ev.append(X("cuda_runtime", "cudaLaunchKernel", t + 0.5 * ms, 20,
                    correlation=c))
        t += 1.1 * ms
    if capture:
        ev.append(X("cuda_runtime", "cudaStreamEndCapture", t, 10))
        ev.append(X("cuda_runtime", "cudaGraphInstantiateWithFlags", t + 20,
                    2 * ms))
    t += 2.1 * ms
    c += 1
    ev.append(X("cuda_runtime", "cudaDeviceSynchronize", t, 50 * ms,
                correlation=c))
    ev.sort(key=lambda e: e["ts"])
    json.dump({"schemaVersion": 1,
               "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB"}],
               "traceEvents": ev}, open(path, "w"))

trace(d + "/capture.json", True)
trace(d + "/eager.json", False)
PY

for f in capture eager; do
    "$PR_BIN" -q --input "$T_DIR/$f.json" --json "$T_DIR/$f.s.json" \
        --html "$T_DIR/$f.html" 2> "$T_DIR/err" ||
        sed 's/^/# /' "$T_DIR/err"
done

check "capture: launches.graph_captures counts the capture" \
    test "$(field "$T_DIR/capture.s.json" "r['launches']['graph_captures']")" = 1
check "capture: the verdict calls it a graph capture, a one-time warm-up" \
    test "$(field "$T_DIR/capture.s.json" "'A graph capture (1 stream capture' in r['verdict']['text'] and 'one-time warm-up' in r['verdict']['text']")" = True
check "capture: the cold_step finding says so, no gain claimed" \
    test "$(field "$T_DIR/capture.s.json" "('graph capture, a one-time warm-up' in rec['cold_step']['text'], rec['cold_step']['gain_us'])")" = "(True, None)"
check "capture: no batch or sync advice, no twice-the-batch row" \
    test "$(field "$T_DIR/capture.s.json" "sorted(set(rec) & {'low_gpu_utilization', 'host_sync'}) + sorted(set(w) & {'low_gpu_utilization', 'gradient_accumulation'})")" = "[]"
check "capture: the report titles it a graph capture, not first-use costs" \
    sh -c "grep -q 'Graph capture: a one-time warm-up' '$T_DIR/capture.html' && ! grep -q 'first-use costs' '$T_DIR/capture.html'"
check "eager: the same calls without the capture get batch or sync advice" \
    test "$(field "$T_DIR/eager.s.json" "(r['launches']['graph_captures'], bool(set(rec) & {'low_gpu_utilization', 'host_sync'}), 'graph capture' in r['verdict']['text'])")" = "(0, True, False)"
echo "1..$T_N"
