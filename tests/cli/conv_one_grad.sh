#!/bin/sh
# conv_one_grad.sh - a convolution backward that computed one gradient
# counts one pass of FLOPs, in the operator tables as in the layer view
# (one rule: pr_roofline_conv_grads).  A trace made here: two convs whose
# backward is an aten::cudnn_convolution_backward without an output_mask
# (PyTorch 1.8 records none), one with _backward_input and _backward_weight
# under it (2 passes), one with _backward_weight only, as ResNet's first
# conv whose input is the image (1 pass); a run of tb_plugin's ResNet-50
# when ../shared is there: conv1's backward row is 45.3 GFLOP, as its layer.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "conv_one_grad" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
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
cc = ["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "1"]
op("aten::conv2d", 1, 10, 30, 1, 3, 0,
   [[8, 3, 32, 32], [16, 3, 3, 3], [], [], [], [], []], cc)
kernel(1, 11, 1, 50, 40)
op("aten::conv2d", 1, 100, 30, 2, 4, 0,
   [[8, 16, 32, 32], [32, 16, 3, 3], [], [], [], [], []], cc)
kernel(1, 101, 2, 150, 40)
# backward, last layer first: (input, grad_output, weight, ...)
op("autograd::engine::evaluate_function: CudnnConvolutionBackward",
   2, 300, 100, 3, 4, 1)
op("CudnnConvolutionBackward", 2, 301, 98, 10, 4, 1)
op("aten::cudnn_convolution_backward", 2, 302, 96, 11, None, None,
   [[8, 16, 32, 32], [8, 32, 32, 32], [32, 16, 3, 3], [], [], [], [], [],
    [], [], []])
op("aten::cudnn_convolution_backward_input", 2, 303, 40, 4)
kernel(2, 304, 4, 310, 40)
op("aten::cudnn_convolution_backward_weight", 2, 350, 40, 5)
kernel(2, 351, 5, 360, 40)
op("autograd::engine::evaluate_function: CudnnConvolutionBackward",
   2, 500, 100, 6, 3, 1)
op("CudnnConvolutionBackward", 2, 501, 98, 12, 3, 1)
op("aten::cudnn_convolution_backward", 2, 502, 96, 13, None, None,
   [[8, 3, 32, 32], [8, 16, 32, 32], [16, 3, 3, 3], [], [], [], [], [],
    [], [], []])
op("aten::cudnn_convolution_backward_weight", 2, 503, 40, 7)
kernel(2, 504, 7, 510, 40)
json.dump({"deviceProperties": [{"id": 0, "name": "Tesla V100-SXM2-16GB",
                                 "computeMajor": 7, "computeMinor": 0,
                                 "numSms": 80}],
           "traceEvents": ev}, open(sys.argv[1] + "/convs.json", "w"))
PY

"$PR_BIN" -q --input "$T_DIR/convs.json" --json "$T_DIR/c.json"
# one pass: 2*N*K*H*W*C*R*S of the first conv (C=3, K=16), of the second
# (C=16, K=32)
check "operators_by_shape: wgrad only 1 pass, dgrad + wgrad 2" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
rows = {x['input_shapes'][:13]: x for x in r['operators_by_shape']
        if x['name'] == 'aten::cudnn_convolution_backward'}
one = 2 * 8 * 16 * 32 * 32 * 3 * 3 * 3
two = 2 * (2 * 8 * 32 * 32 * 32 * 16 * 3 * 3)
assert rows['[[8, 3, 32, 3']['flops'] == one, rows
assert rows['[[8, 16, 32, ']['flops'] == two, rows
# the bytes write no data gradient: the wgrad-only row reads grad_output,
# input and weight and writes the weight gradient
w = 8 * 3 * 32 * 32 + 8 * 16 * 32 * 32 + 2 * 16 * 3 * 3 * 3
assert rows['[[8, 3, 32, 3']['bytes'] == 4 * w, rows['[[8, 3, 32, 3']
by_name = [x for x in r['operators']
           if x['name'] == 'aten::cudnn_convolution_backward'][0]
assert by_name['flops'] == one + two, by_name
" "$T_DIR/c.json"
check "layers: the same one rule (1 pass, 2 passes)" python3 -c "
import json, sys
rows = {x['input_shapes'][:13]: x
        for x in json.load(open(sys.argv[1]))['runs'][0]['layers']}
wonly, both = rows['[[8, 3, 32, 3'], rows['[[8, 16, 32, ']
assert wonly['backward_flops'] == wonly['forward_flops'], wonly
assert wonly['backward_flops_source'] == 'formula', wonly
assert both['backward_flops'] == 2 * both['forward_flops'], both
" "$T_DIR/c.json"

if have_shared; then
    TB=tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
    shared_summary tb "$TB"
    check "tb_plugin: conv1's backward row is one pass, as its layer" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
row = [x for x in r['operators_by_shape']
       if x['name'] == 'aten::cudnn_convolution_backward' and
       x['input_shapes'].startswith('[[32, 3, 224, 224]')][0]
lay = [x for x in r['layers']
       if x['input_shapes'].startswith('[[32, 3, 224, 224]')][0]
assert abs(row['flops'] - 45.3e9) < 0.1e9, row['flops']
assert abs(row['achieved_tflops'] - 7.67) < 0.01, row['achieved_tflops']
assert row['flops'] == lay['backward_flops'], (row['flops'], lay)
assert row['bytes'] == lay['backward_bytes'], (row['bytes'], lay)
" "$T_DIR/tb.json"
else
    skip "tb_plugin: conv1 backward row" "no $PR_SHARED/traces"
fi
echo "1..$T_N"
