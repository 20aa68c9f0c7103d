#!/bin/sh
# layers.sh - the roofline by layer (issue #16) as users see it: the
# "Layers" section of the HTML and the PDF (a roofline of layers, forward
# beside backward), and `table --kind layers`.  The trace is made here: a
# conv2d layer (seq 3) whose backward op has no FLOP formula, so its
# backward FLOPs are the estimated 2x of the forward's 75,497,472 and the
# report says so; a second run of tb_plugin's ResNet-50 when ../shared is
# there.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "layers" "no python3"
    echo "1..$T_N"
    exit 0
fi
TR=$T_DIR/conv.pt.trace.json
python3 - "$TR" << 'PY'
import json, sys
ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
       "pid": 1, "tid": 1, "ts": 0, "dur": 400, "args": {}}]
def op(name, tid, ts, dur, ext, seq, fwd, dims=None, concrete=None):
    a = {"External id": ext, "Sequence number": seq, "Fwd thread id": fwd}
    if dims:
        a["Input Dims"] = dims
        a["Input type"] = ["float"] * len(dims)
    if concrete:
        a["Concrete Inputs"] = concrete
    ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1,
               "tid": tid, "ts": ts, "dur": dur, "args": a})
def kernel(tid, ts, ext, kts, kdur):
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
               "pid": 1, "tid": tid, "ts": ts, "dur": 1,
               "args": {"External id": ext, "correlation": ext}})
    ev.append({"ph": "X", "cat": "kernel", "name": "conv_kernel", "pid": 0,
               "tid": 7, "ts": kts, "dur": kdur,
               "args": {"External id": ext, "correlation": ext,
                        "device": 0, "stream": 7}})
op("aten::conv2d", 1, 10, 30, 1, 3, 0,
   [[8, 16, 32, 32], [32, 16, 3, 3], [], [], [], [], []],
   ["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "1"])
kernel(1, 11, 1, 50, 40)
op("autograd::engine::evaluate_function: ConvolutionBackward0", 2, 130, 40,
   5, 3, 1)
op("my_conv_backward", 2, 131, 30, 6, -1, -1,
   [[8, 32, 32, 32], [8, 16, 32, 32], [32, 16, 3, 3]])
kernel(2, 132, 6, 140, 80)
json.dump({"deviceProperties": [{"id": 0, "name": "Tesla V100-SXM2-16GB",
                                 "computeMajor": 7, "computeMinor": 0,
                                 "numSms": 80}],
           "traceEvents": ev}, open(sys.argv[1], "w"))
PY

"$PR_BIN" -q --input "$TR" --html "$T_DIR/r.html" --pdf "$T_DIR/r.pdf" \
    --json "$T_DIR/r.json"
check "report written (exit $?)" [ -s "$T_DIR/r.html" ]
check "HTML: a Layers section" grep -q '<section id="layers">' "$T_DIR/r.html"
check "HTML: the layers' roofline" \
    grep -q 'Roofline (layers: forward + backward' "$T_DIR/r.html"
check "HTML: the estimate says it is one" \
    grep -q 'estimated 2x forward' "$T_DIR/r.html"
check "summary: backward FLOPs twice the forward" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]['layers'][0]
assert r['name'] == 'aten::conv2d', r
assert r['forward_flops'] == 75497472, r
assert r['backward_flops'] == 2 * 75497472, r
assert r['backward_flops_source'] == 'estimated 2x forward', r
" "$T_DIR/r.json"
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext -layout "$T_DIR/r.pdf" "$T_DIR/r.txt"
    check "PDF: forward and backward by layer" \
        grep -q 'Forward and backward by layer' "$T_DIR/r.txt"
    check "PDF: the estimate's source column" \
        grep -q 'estimated 2x' "$T_DIR/r.txt"
else
    skip "PDF: forward and backward by layer" "no pdftotext"
fi

"$PR_BIN" table -q --input "$T_DIR/r.json" --kind layers --csv \
    -c name,calls,fwd_flops,bwd_flops,bwd_source > "$T_DIR/t.csv"
check "table --kind layers: header" \
    grep -q '^name,calls,fwd_flops,bwd_flops,bwd_source' "$T_DIR/t.csv"
check "table --kind layers: the conv row" \
    grep -q '^aten::conv2d,1,7.55e+07,1.51e+08,estimated 2x forward' \
    "$T_DIR/t.csv"

if have_shared; then
    "$PR_BIN" table -q --input \
        "$PR_SHARED/traces/tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz" \
        --kind layers --top 3 > "$T_DIR/tb.txt"
    check "tb_plugin: three layers, the heaviest a conv2d" \
        sh -c "grep -c 'aten::' '$T_DIR/tb.txt' | grep -qx 3 &&
               grep -m1 'aten::' '$T_DIR/tb.txt' | grep -q 'aten::conv2d'"
else
    skip "tb_plugin: layers table" "no $PR_SHARED/traces"
fi
echo "1..$T_N"
