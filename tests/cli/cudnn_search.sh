#!/bin/sh
# cudnn_search.sh - review 30g #2: event synchronizations inside a cuDNN
# convolution that also reads cudaEventElapsedTime are cuDNN's algorithm
# search (torch.backends.cudnn.benchmark=True, once per shape): counted
# apart (synchronization.calls[].cudnn_search_count, cudnn_search_idle_us),
# said as a one-time cost, never the .item() advice.  The same syncs under
# an operator of the user's keep the host_sync advice.  Hand-made: five
# 1 ms kernels, each timed between two events and waited for, the host
# back 1 ms after each wait (the device idles 1 ms each time).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "cudnn search" "python3 is needed"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" << 'PY'
import json, sys
d = sys.argv[1]

def X(cat, name, ts, dur, tid=1, pid=1, **a):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": a}

def trace(op, path):
    ev = [X("cpu_op", op, 0, 12000, **{"External id": 1})]
    t, c = 100, 1
    for i in range(5):
        ev.append(X("cuda_runtime", "cudaEventRecord", t, 5, correlation=c))
        c += 1
        ev.append(X("cuda_runtime", "cudaLaunchKernel", t + 10, 10,
                    correlation=c))
        ev.append(X("kernel", "implicit_convolve_sgemm", t + 30, 1000,
                    tid=7, pid=0, correlation=c, device=0, stream=7))
        c += 1
        ev.append(X("cuda_runtime", "cudaEventRecord", t + 25, 5,
                    correlation=c))
        c += 1
        ev.append(X("cuda_runtime", "cudaEventSynchronize", t + 35, 995,
                    correlation=c))
        c += 1
        if op.startswith("aten::cudnn"):
            ev.append(X("cuda_runtime", "cudaEventElapsedTime", t + 1035, 3,
                        correlation=c))
            c += 1
        t += 2100
    ev.sort(key=lambda e: e["ts"])
    json.dump({"schemaVersion": 1,
               "deviceProperties": [{"id": 0, "name": "Tesla V100-SXM2-16GB"}],
               "traceEvents": ev}, open(path, "w"))

trace("aten::cudnn_convolution", d + "/dnn.json")
trace("aten::item", d + "/user.json")
PY

for f in dnn user; do
    "$PR_BIN" -q --input "$T_DIR/$f.json" --json "$T_DIR/$f.s.json" \
        2> "$T_DIR/err" || sed 's/^/# /' "$T_DIR/err"
done

# field FILE EXPR over the first run (r) and its findings (f: id -> text)
field() {
    python3 - "$1" "$2" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
f = {x["id"]: x["text"] for k in ("recommendations", "observations")
     for x in r.get(k) or []}
print(eval(sys.argv[2]))
PY
}

check "cuDNN search: the 5 event syncs counted apart, with their idle" \
    test "$(field "$T_DIR/dnn.s.json" "[(c['count'], c['cudnn_search_count'], c['cudnn_search_idle_us'] == c['gpu_idle_us'] > 0) for c in r['synchronization']['calls'] if c['name'] == 'cudaEventSynchronize']")" = "[(5, 5, True)]"
check "cuDNN search: said as the search, once per shape" \
    test "$(field "$T_DIR/dnn.s.json" "'cudnn_search' in f and 'cudnn.benchmark=True' in f['cudnn_search'] and 'once per shape' in f['cudnn_search']")" = True
check "cuDNN search: no .item() advice" \
    test "$(field "$T_DIR/dnn.s.json" "'host_sync' in f or any('.item()' in t for t in f.values())")" = False
check "the user's syncs: host_sync with the .item() advice, no cuDNN words" \
    test "$(field "$T_DIR/user.s.json" "('host_sync' in f and '.item()' in f['host_sync'], 'cudnn_search' in f)")" = "(True, False)"
echo "1..$T_N"
