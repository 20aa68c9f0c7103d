#!/bin/sh
# mtia_words.sh - an MTIA run's advice names its device and runtime in
# MTIA's words (issue #30 leftover): the launch_bound text said "CUDA
# runtime calls", "the GPU idles" and "Capture the step in a CUDA graph",
# low utilization "GPU 17", the start-up collective verdict "tuning NCCL
# would not shorten it" and the communication finding "NCCL_DEBUG=INFO".
# No NCCL runs on an MTIA and the trace names no collective library:
# "MTIA runtime calls" (Kineto's mtia_runtime), "the MTIA", PyTorch's
# torch.mtia.mtia_graph, "the collective library".  The same traces with
# CUDA kernels keep CUDA's and NCCL's words.
#
# Hand-made: "launch": 3 steps of 2 ms, 200 launches a step of a 2 us
# task; "startup": no steps, a 300 ms all-reduce 3 ms in, then 10 compute
# tasks and 10 short all-reduces (c10d::allreduce_, record_param_comms),
# all launched up front.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "mtia words" "no python3"
    echo "1..$T_N"
    exit 0
fi

# trace FILE launch|startup mtia|cuda
trace() {
    python3 - "$@" << 'PY'
import json, sys
out, mode, mtia = sys.argv[1], sys.argv[2], sys.argv[3] == "mtia"
dev = 17 if mtia else 0
rt, call, cat = ("mtia_runtime", "gif_merge", "mtia_ccp_events") if mtia \
    else ("cuda_runtime", "cudaLaunchKernel", "kernel")
def x(cat, name, pid, tid, ts, dur, **a):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": a}
meta = {"Collective name": "allreduce", "In msg nelems": 1048576,
        "Out msg nelems": 1048576, "dtype": "Float", "Group size": 2,
        "Process Group Name": "0", "Process Group Description": "default_pg"}
ev, corr, ext = [], 100, 1
def launch(t, name, dur, dt=None, tid=3774, stream=108, **a):
    global corr, ext
    if a:
        ev.append(x("cpu_op", "c10d::allreduce_", 1, 1, t - 4, 12,
                    **{"External id": ext}))
        ev.append(x("cpu_op", "record_param_comms", 1, 1, t - 2, 8,
                    **dict(a, **{"External id": ext})))
    else:
        ev.append(x("cpu_op", "aten::linear", 1, 1, t - 2, 8,
                    **{"External id": ext}))
    ev.append(x(rt, call, 1, 1, t, 3, correlation=corr, device=dev,
                **{"External id": ext}))
    ev.append(x(cat, name, dev, tid, t + 5 if dt is None else dt, dur,
                stream=stream, correlation=corr, device=dev,
                **dict(a, **{"External id": ext})))
    corr += 1
    ext += 1
if mode == "startup":
    launch(0, "pe_exe", 600)
    launch(100, "allreduce", 300000, 3000, 3775, 109, **meta)
    t, h = 303200, 200
    for i in range(10):
        launch(h, "pe_exe", 2000, t)
        t, h = t + 2100, h + 20
        launch(h, "allreduce", 5000, t, 3775, 109, **meta)
        t, h = t + 5100, h + 20
else:
    t = 0
    for s in range(3):
        ev.append(x("user_annotation", "ProfilerStep#%d" % s, 1, 1, t, 2000))
        for i in range(200):
            launch(t + 10 * i, "pe_exe", 2)
        t += 2000
props = [{"id": 17, "name": "ARTEMIS"}] if mtia else \
        [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "computeMajor": 8,
          "computeMinor": 0, "numSms": 108, "totalGlobalMem": 85899345920}]
json.dump({"schemaVersion": 1, "deviceProperties": props,
           "traceEvents": ev}, open(out, "w"))
PY
}

# texts SUMMARY ID: the verdict's text (ID verdict) or the finding's
texts() {
    python3 - "$1" "$2" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
if sys.argv[2] == "verdict":
    print(r["verdict"]["text"])
for f in (r.get("observations") or []) + (r.get("recommendations") or []):
    if f["id"] == sys.argv[2]:
        print(f["text"])
PY
}

words() { # report -> its HTML's text
    python3 - "$1" << 'PY'
import html, re, sys
t = open(sys.argv[1]).read()
t = re.sub(r"<script.*?</script>|<style.*?</style>", "", t, flags=re.S)
print(html.unescape(re.sub(r"<[^>]+>", "\n", t)))
PY
}

for k in mtia cuda; do
    for m in launch startup; do
        trace "$T_DIR/$k.$m.json" $m $k
        "$PR_BIN" -q --input "$T_DIR/$k.$m.json" --json "$T_DIR/$k.$m.s.json" \
            --html "$T_DIR/$k.$m.html" 2> "$T_DIR/$k.$m.err"
        check "$k $m: read" test $? -eq 0
    done
done

texts "$T_DIR/mtia.launch.s.json" launch_bound > "$T_DIR/lb"
check "MTIA launch_bound: MTIA runtime calls, the MTIA idles, an MTIA graph ($(cut -c1-400 "$T_DIR/lb"))" \
    sh -c "grep -q 'while MTIA runtime calls take' '$T_DIR/lb' &&
           grep -q 'and the MTIA idles' '$T_DIR/lb' &&
           grep -q 'the MTIA waits for the CPU' '$T_DIR/lb' &&
           grep -q 'Capture the step in an MTIA graph (torch.mtia.mtia_graph.graph)' '$T_DIR/lb'"
texts "$T_DIR/mtia.launch.s.json" low_gpu_utilization > "$T_DIR/lu"
check "MTIA low utilization: 'MTIA 17 has low utilization' ($(cut -c1-80 "$T_DIR/lu"))" \
    grep -q '^MTIA 17 has low utilization' "$T_DIR/lu"
texts "$T_DIR/mtia.startup.s.json" verdict > "$T_DIR/su"
check "MTIA start-up wait: tuning the collective library, not NCCL" \
    sh -c "grep -q 'A start-up wait' '$T_DIR/su' &&
           grep -q 'so tuning the collective library would not shorten it' '$T_DIR/su'"
texts "$T_DIR/mtia.startup.s.json" communication > "$T_DIR/co"
check "MTIA communication: the backend's debug log, not NCCL_DEBUG" \
    sh -c "grep -q 'its debug log names them' '$T_DIR/co' &&
           ! grep -q NCCL_DEBUG '$T_DIR/co'"
for m in launch startup; do
    words "$T_DIR/mtia.$m.html" > "$T_DIR/mtia.$m.words"
    check "MTIA $m: no GPU, CUDA or NCCL word in the report ($(grep -oE '\bGPUs?\b|CUDA|NCCL' "$T_DIR/mtia.$m.words" | sort -u | tr '\n' ' '))" \
        sh -c "! grep -qE '\bGPUs?\b|CUDA|NCCL' '$T_DIR/mtia.$m.words'"
done

texts "$T_DIR/cuda.launch.s.json" launch_bound > "$T_DIR/clb"
check "CUDA launch_bound keeps CUDA's words" \
    sh -c "grep -q 'while CUDA runtime calls take' '$T_DIR/clb' &&
           grep -q 'and the GPU idles' '$T_DIR/clb' &&
           grep -q 'in a CUDA graph' '$T_DIR/clb'"
texts "$T_DIR/cuda.startup.s.json" verdict > "$T_DIR/csu"
check "CUDA start-up wait keeps NCCL" \
    grep -q 'so tuning NCCL would not shorten it' "$T_DIR/csu"
texts "$T_DIR/cuda.startup.s.json" communication > "$T_DIR/cco"
check "CUDA communication keeps NCCL_DEBUG=INFO" \
    grep -q 'NCCL_DEBUG=INFO names them' "$T_DIR/cco"
echo "1..$T_N"
