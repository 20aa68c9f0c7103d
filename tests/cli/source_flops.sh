#!/bin/sh
# source_flops.sh - a source line's FLOPs (sources.c) count its operators'
# FLOPs once through the nesting (review 22g item 3: tb_resnet50's forward
# line held 2.90 GFLOP of its 1.59 TFLOP, because an aten::empty inside
# cudnn_convolution "knew" 0 FLOPs and hid the convolution, and a conv
# without stride and padding had no estimate at all).  A hand-made trace:
#   model.py:12  aten::conv2d > convolution > _convolution >
#                cudnn_convolution > aten::empty, with Concrete Inputs
#                (stride 1, padding 1): 2*8*32*32*32*16*3*3 = 75,497,472
#   model.py:14  the same chain without Concrete Inputs; its backward node
#                (same sequence number) gives the output shape, as the
#                roofline does: 75,497,472 again
#   model.py:16  aten::linear > aten::t, aten::addmm: 2*4*8*16 = 1,024,
#                once (not 2,048)
# then tb_plugin's ResNet-50 (../shared): line 46 holds its convolutions.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "source flops" "no python3"
    echo "1..$T_N"
    exit 0
fi
TR=$T_DIR/src.pt.trace.json
python3 - "$TR" << 'PY'
import json, sys
ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
       "pid": 1, "tid": 1, "ts": 0, "dur": 1000, "args": {}}]
ext = [0]
def op(name, ts, dur, line, seq=-1, dims=None, concrete=None, tid=1, fwd=0):
    ext[0] += 1
    a = {"External id": ext[0], "Sequence number": seq, "Fwd thread id": fwd}
    if line:
        a["Call stack"] = "model.py(%d): <module>" % line
    if dims is not None:
        a["Input Dims"] = dims
        a["Input type"] = ["float" if d else "" for d in dims]
    if concrete:
        a["Concrete Inputs"] = concrete
    ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1,
               "tid": tid, "ts": ts, "dur": dur, "args": a})
X, W = [8, 16, 32, 32], [32, 16, 3, 3]
def conv(t0, line, seq, concrete):
    c = ["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "1"] if concrete else None
    op("aten::conv2d", t0, 100, line, seq, [X, W, [], [], [], [], []], c)
    op("aten::convolution", t0 + 5, 90, line, seq, [X, W, [], [], [], [], [], [], []],
       ["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1"]
       if concrete else None)
    op("aten::_convolution", t0 + 10, 80, line, seq,
       [X, W, [], [], [], [], [], [], [], [], [], [], []])
    op("aten::cudnn_convolution", t0 + 15, 70, line, seq,
       [X, W, [], [], [], [], [], [], []])
    op("aten::empty", t0 + 20, 5, line, -1, [[], [], [], [], [], []])
conv(10, 12, 3, True)
conv(200, 14, 4, False)
op("aten::linear", 400, 50, 16, 5, [[4, 8], [16, 8], [16]])
op("aten::t", 405, 5, 16, -1, [[16, 8]])
op("aten::addmm", 415, 30, 16, -1, [[16], [4, 8], [8, 16], [], []])
# the backward of line 14's conv: grad_output is the conv's output
op("CudnnConvolutionBackward", 700, 50, 0, 4, [[8, 32, 32, 32]], tid=2, fwd=1)
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(sys.argv[1], "w"))
PY

"$PR_BIN" -q --input "$TR" --json "$T_DIR/s.json"
check "summary written" [ -s "$T_DIR/s.json" ]
# flops LINE: the sources row of model.py:LINE
flops() {
    python3 - "$T_DIR/s.json" "$1" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
print([s["flops"] for s in r["sources"] if s["line"] == int(sys.argv[2])])
PY
}
f=$(flops 12)
check "a conv chain with an aten::empty inside counts the conv once ($f)" \
    test "$f" = "[75497472]"
f=$(flops 14)
check "a conv without stride/padding takes its backward's output ($f)" \
    test "$f" = "[75497472]"
f=$(flops 16)
check "aten::linear over aten::addmm counted once ($f)" test "$f" = "[1024]"

if ! have_shared; then
    skip "tb_plugin ResNet-50" "no ../shared/traces"
    echo "1..$T_N"
    exit 0
fi
if shared_summary rn tb_plugin/resnet50_num_workers_0; then
    # the forward line's FLOPs hold every cudnn_convolution's (the
    # operator table's) and add only what else ran there (batch norm,
    # clamp_min, add_, max_pool: 1-2% more)
    check "resnet50: line 46 holds its convolutions' FLOPs" python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    conv = [o['flops'] for o in r['operators']
            if o['name'] == 'aten::cudnn_convolution'][0]
    s = [s['flops'] for s in r['sources'] if s['line'] == 46][0]
    assert conv > 1.5e12 and conv <= s <= 1.03 * conv, (conv, s)
" "$T_DIR/rn.json"
else
    skip "tb_plugin ResNet-50" "no tb_plugin/resnet50_num_workers_0"
fi
echo "1..$T_N"
