#!/bin/sh
# layers_pairs.sh - which layer a backward joins, and what it is estimated
# to cost (review25g #4 and #6), on traces made here:
# - a C++ autograd Function (myext::lookup_function, no sequence number of
#   its own) whose inner aten::zero_ and aten::view carry the number its
#   backward node (CppNode<LookupFunction>) takes: the backward joins the
#   enclosing lookup_function, never the zero_ or the view;
# - the same after another op (myext::bounds_check) whose aten::zero_ [[1]]
#   carries that number too, as fbgemm's bounds_check_indices does in
#   hta_diff_control: which layer made the node cannot be told, so the
#   backward is unpaired, and no zero_ row holds it;
# - two convolutions whose backward has no FLOP formula: one whose
#   backward holds cudnn_convolution_backward_input and _weight (2x the
#   forward), one with the weight gradient only, as ResNet's first conv
#   (1x); a run of tb_plugin's ResNet-50 when ../shared is there: conv1's
#   backward is 45.3 GFLOP, and its winograd layers are marked; and of
#   hta's trace_diff control: the SplitLookupFunction backward is unpaired.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "layers_pairs" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
def trace(path, body):
    ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
           "pid": 1, "tid": 1, "ts": 0, "dur": 900, "args": {}}]
    def op(name, tid, ts, dur, ext, seq=None, fwd=None, dims=None,
           concrete=None):
        a = {"External id": ext}
        if seq is not None:
            a["Sequence number"] = seq
            a["Fwd thread id"] = fwd
        if dims:
            a["Input Dims"] = dims
            a["Input type"] = ["float"] * len(dims)
        if concrete:
            a["Concrete Inputs"] = concrete
        ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1,
                   "tid": tid, "ts": ts, "dur": dur, "args": a})
    def kernel(tid, ts, ext, kts, kdur):
        ev.append({"ph": "X", "cat": "cuda_runtime",
                   "name": "cudaLaunchKernel", "pid": 1, "tid": tid,
                   "ts": ts, "dur": 1,
                   "args": {"External id": ext, "correlation": ext}})
        ev.append({"ph": "X", "cat": "kernel", "name": "k%d" % ext,
                   "pid": 0, "tid": 7, "ts": kts, "dur": kdur,
                   "args": {"External id": ext, "correlation": ext,
                            "device": 0, "stream": 7}})
    body(op, kernel)
    json.dump({"deviceProperties": [{"id": 0, "name": "Tesla V100-SXM2-16GB",
                                     "computeMajor": 7, "computeMinor": 0,
                                     "numSms": 80}],
               "traceEvents": ev}, open(path, "w"))

def lookup(op, kernel, spread):
    if spread:
        op("myext::bounds_check", 1, 10, 20, 1)
        op("aten::zero_", 1, 12, 5, 2, 7, 0, [[1]])
        kernel(1, 13, 2, 40, 2)
    op("myext::lookup_function", 1, 50, 100, 3)
    op("aten::zero_", 1, 52, 5, 4, 7, 0, [[]])
    kernel(1, 53, 4, 60, 2)
    op("aten::view", 1, 60, 5, 5, 7, 0, [[64, 4]])
    op("myext::lookup_forward", 1, 70, 50, 6)
    kernel(1, 71, 6, 80, 60)
    op("autograd::engine::evaluate_function: "
       "torch::autograd::CppNode<LookupFunction>", 2, 300, 200, 7, 7, 1)
    op("myext::lookup_backward", 2, 302, 190, 8)
    kernel(2, 303, 8, 310, 150)
trace(sys.argv[1] + "/lookup.json", lambda o, k: lookup(o, k, False))
trace(sys.argv[1] + "/spread.json", lambda o, k: lookup(o, k, True))

def convs(op, kernel):
    cc = ["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "1"]
    op("aten::conv2d", 1, 10, 30, 1, 3, 0,
       [[8, 3, 32, 32], [16, 3, 3, 3], [], [], [], [], []], cc)
    kernel(1, 11, 1, 50, 40)
    op("aten::conv2d", 1, 100, 30, 2, 4, 0,
       [[8, 16, 32, 32], [32, 16, 3, 3], [], [], [], [], []], cc)
    kernel(1, 101, 2, 150, 40)
    op("autograd::engine::evaluate_function: CudnnConvolutionBackward0",
       2, 300, 100, 3, 4, 1)
    op("aten::cudnn_convolution_backward_input", 2, 301, 40, 4)
    kernel(2, 302, 4, 310, 40)
    op("aten::cudnn_convolution_backward_weight", 2, 350, 40, 5)
    kernel(2, 351, 5, 360, 40)
    op("autograd::engine::evaluate_function: CudnnConvolutionBackward0",
       2, 500, 100, 6, 3, 1)
    op("aten::cudnn_convolution_backward_weight", 2, 501, 40, 7)
    kernel(2, 502, 7, 510, 40)
trace(sys.argv[1] + "/convs.json", convs)
PY

"$PR_BIN" -q --input "$T_DIR/lookup.json" --json "$T_DIR/l.json" \
    --html "$T_DIR/l.html"
check "custom Function: the backward joins the enclosing op" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
names = [(x['name'], x['input_shapes'], x['backward']) for x in r['layers']]
assert len(names) == 1, names
assert names[0][0] == 'myext::lookup_function', names
assert 'LookupFunction' in names[0][2], names
assert r['layers'][0]['backward_calls'] == 1, r['layers']
assert r['layer_view']['backward_unpaired'] == 0, r['layer_view']
" "$T_DIR/l.json"
check "custom Function: no zero_ or view row in the HTML's layer table" \
    sh -c "! sed -n '/<section id=\"layers\">/,/<\/section>/p' '$T_DIR/l.html' |
           grep -q 'aten::zero_\|aten::view'"

"$PR_BIN" -q --input "$T_DIR/spread.json" --json "$T_DIR/s.json" \
    --html "$T_DIR/s.html"
check "number carried by two layers: the backward is unpaired" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['layers'] == [], r['layers']
assert r['layer_view']['backward_roots'] == 1, r['layer_view']
assert r['layer_view']['backward_unpaired'] == 1, r['layer_view']
" "$T_DIR/s.json"
check "number carried by two layers: no zero_ row in the HTML" \
    sh -c "! sed -n '/<section id=\"layers\">/,/<\/section>/p' '$T_DIR/s.html' |
           grep -q 'aten::zero_'"

"$PR_BIN" -q --input "$T_DIR/convs.json" --json "$T_DIR/c.json" \
    --html "$T_DIR/c.html"
check "conv: dgrad + wgrad 2x the forward, wgrad only 1x" python3 -c "
import json, sys
rows = {x['input_shapes'][:14]: x
        for x in json.load(open(sys.argv[1]))['runs'][0]['layers']}
both, wonly = rows['[[8, 16, 32, 3'], rows['[[8, 3, 32, 32']
assert both['backward_flops'] == 2 * both['forward_flops'], both
assert both['backward_flops_source'] == 'estimated 2x forward', both
assert wonly['backward_flops'] == wonly['forward_flops'], wonly
assert wonly['forward_flops'] == 2 * 8 * 16 * 32 * 32 * 3 * 3 * 3, wonly
assert wonly['backward_flops_source'] == 'estimated 1x forward', wonly
" "$T_DIR/c.json"
check "conv: the HTML says where the 1x comes from" \
    grep -q 'estimated 1x forward' "$T_DIR/c.html"
check "conv: chart labels carry kernel and channels" \
    grep -q 'conv2d 3x3 3-&gt;16 \[8,3,32,32\]\|conv2d 3x3 3->16 \[8,3,32,32\]' \
    "$T_DIR/c.html"

if have_shared; then
    TB=tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
    shared_report tb "$TB"
    check "tb_plugin: conv1's backward is the weight gradient, 45.3 GFLOP" \
        python3 -c "
import json, sys
r = [x for x in json.load(open(sys.argv[1]))['runs'][0]['layers']
     if x['input_shapes'].startswith('[[32, 3, 224, 224]')][0]
assert abs(r['backward_flops'] - 45.3e9) < 0.1e9, r['backward_flops']
assert abs(r['backward_achieved_tflops'] - 7.67) < 0.01, r
" "$T_DIR/tb.json"
    # review 28g #1: a side over its roof alone marks the layer (the 3x3
    # 64->64 conv: forward at 134% of the fp32 peak in Winograd, 98% with
    # its backward)
    check "tb_plugin: a layer whose forward alone is over its roof is marked" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
ls = [l for l in r['layers'] if l['input_shapes'].startswith('[[32, 64, 56, 56], [64, 64, 3, 3]')]
assert ls, [l['input_shapes'] for l in r['layers']]
l = ls[0]
assert l['roofline_pct'] < 100 and l['forward_achieved_tflops'] > l['peak_tflops'], l
assert l['roofline_mark'] == 'winograd', l
# review 32g #6: the mark is its forward's, and says so
assert l['roofline_mark_side'] == 'forward', l
over = [x for x in r['layers'] if (x['roofline_pct'] or 0) > 100]
assert over and all(x['roofline_mark_side'] is None for x in over), over
for x in r['operators'] + r['operators_by_shape']:
    if x.get('roofline_mark') in ('winograd', 'fft', 'cache_resident', 'model_overcount'):
        assert x['roofline_pct'] > 100, x
" "$T_DIR/tb.json"
    check "tb_plugin: winograd layers marked in the layer table and chart" \
        sh -c "sed -n '/<section id=\"layers\">/,/<\/section>/p' '$T_DIR/tb.html' > '$T_DIR/tbl.html' &&
               grep -q 'Above roof' '$T_DIR/tbl.html' &&
               grep -q '(winograd)' '$T_DIR/tbl.html' &&
               grep -q 'Side above' '$T_DIR/tbl.html' &&
               grep -q 'over its roof for a known reason' '$T_DIR/tbl.html'"
    shared_summary ctl hta/trace_diff/control/control.json.gz
    check "hta control: SplitLookupFunction's backward under no zero_" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
bad = [x['name'] for x in r['layers'] if 'SplitLookupFunction' in
       (x['backward'] or '')]
assert bad == [], bad
assert r['layer_view']['backward_unpaired'] >= 12, r['layer_view']
" "$T_DIR/ctl.json"
    "$PR_BIN" -q --input "$PR_SHARED/traces/hta/trace_diff/control/control.json.gz" \
        --html "$T_DIR/ctl.html" 2> /dev/null
    check "hta control: the Layers part says its unpaired backward roots (review 27 #3)" \
        grep -q "18 of the 2382 backward roots are paired with no layer" "$T_DIR/ctl.html"
else
    skip "tb_plugin: conv1 backward" "no $PR_SHARED/traces"
fi
echo "1..$T_N"
