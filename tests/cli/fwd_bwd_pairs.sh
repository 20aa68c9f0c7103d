#!/bin/sh
# fwd_bwd_pairs.sh - which forward op a backward node pairs with in
# runs[].fwd_bwd (issue #29 review): an op that holds forward ops of other
# sequence numbers made no node of its own (aten::linear took the number
# of the aten::t inside it, aten::einsum that of its aten::unsqueeze), so
# the pair is the outermost op of the number that holds no other number;
# pairing the outer op counted its inner ops' time twice (a CS336 export:
# einsum 33.3 ms beside UnsqueezeBackward0 and its bmm 33.1 ms beside
# BmmBackward0).  A chain of one number (conv2d > convolution >
# cudnn_convolution) still pairs at its outermost op.  The forward column
# then adds up to the layers' forward time.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "fwd_bwd pairs" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR/t.json" << 'PY'
import json, sys
ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
       "pid": 1, "tid": 1, "ts": 0, "dur": 2000, "args": {}}]
ext = [0]
def op(name, tid, ts, dur, seq=None, bwd=False, kdur=None, kts=None):
    ext[0] += 1
    a = {"External id": ext[0]}
    if seq is not None:
        a["Sequence number"] = seq
        a["Fwd thread id"] = 1 if bwd else 0
    ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1,
               "tid": tid, "ts": ts, "dur": dur, "args": a})
    if kdur:
        c = ext[0]
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
                   "pid": 1, "tid": tid, "ts": ts + 1, "dur": 1,
                   "args": {"External id": c, "correlation": c}})
        ev.append({"ph": "X", "cat": "kernel", "name": "k_" + name, "pid": 0,
                   "tid": 7, "ts": kts, "dur": kdur,
                   "args": {"External id": c, "correlation": c, "device": 0,
                            "stream": 7}})
# forward: linear (3) > t (3), addmm (4); einsum (5) > unsqueeze (5),
# bmm (6); conv2d (7) > convolution (7) > cudnn_convolution (7)
op("aten::linear", 1, 10, 40, 3)
op("aten::t", 1, 12, 5, 3)
op("aten::addmm", 1, 20, 20, 4, kdur=100, kts=30)
op("aten::einsum", 1, 60, 40, 5)
op("aten::unsqueeze", 1, 62, 5, 5)
op("aten::bmm", 1, 70, 20, 6, kdur=50, kts=140)
op("aten::conv2d", 1, 110, 40, 7)
op("aten::convolution", 1, 112, 36, 7)
op("aten::cudnn_convolution", 1, 114, 30, 7, kdur=80, kts=200)
# backward, on the engine's thread
t = 1000
for node, seq, k in (("ConvolutionBackward0", 7, 160), ("BmmBackward0", 6, 100),
                     ("UnsqueezeBackward0", 5, 0), ("AddmmBackward0", 4, 200),
                     ("TBackward0", 3, 0)):
    op("autograd::engine::evaluate_function: " + node, 2, t, 50, seq, True)
    op(node, 2, t + 2, 40, seq, True, kdur=k or None, kts=t + 10)
    t += 60 if not k else 300
json.dump({"deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-40GB",
                                 "computeMajor": 8, "computeMinor": 0,
                                 "numSms": 108}],
           "traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PR_BIN" -q --input "$T_DIR/t.json" --json "$T_DIR/s.json" 2> "$T_DIR/err"
check "exit 0 ($(head -c 200 "$T_DIR/err"))" [ -s "$T_DIR/s.json" ]
python3 - "$T_DIR/s.json" > "$T_DIR/r.txt" 2> "$T_DIR/err" << 'PY'
import json, sys
run = json.load(open(sys.argv[1]))['runs'][0]
for r in run['fwd_bwd']:
    print('%s|%s|%.0f|%.0f' % (r['forward'], r['backward'],
                               r['forward_device_us'], r['backward_device_us']))
print('sum|%.0f|%.0f' % (sum(r['forward_device_us'] for r in run['fwd_bwd']),
                         run['layer_view']['forward_device_us']))
PY
check "read ($(head -c 200 "$T_DIR/err"))" [ -s "$T_DIR/r.txt" ]
check "addmm pairs with AddmmBackward0, t with TBackward0 ($(tr '\n' ' ' < "$T_DIR/r.txt"))" \
    sh -c 'grep -qx "aten::addmm|AddmmBackward0|100|200" "$1" && grep -qx "aten::t|TBackward0|0|0" "$1"' _ "$T_DIR/r.txt"
check "bmm pairs with BmmBackward0, unsqueeze with UnsqueezeBackward0" \
    sh -c 'grep -qx "aten::bmm|BmmBackward0|50|100" "$1" && grep -qx "aten::unsqueeze|UnsqueezeBackward0|0|0" "$1"' _ "$T_DIR/r.txt"
check "no row for linear or einsum, which made no node" \
    sh -c '! grep -q "^aten::linear|\|^aten::einsum|" "$1"' _ "$T_DIR/r.txt"
check "a chain of one number pairs at its outermost op: conv2d" \
    grep -qx "aten::conv2d|ConvolutionBackward0|80|160" "$T_DIR/r.txt"
check "the forward column adds up to the layers' forward time (230 us)" \
    grep -qx "sum|230|230" "$T_DIR/r.txt"
echo "1..$T_N"
