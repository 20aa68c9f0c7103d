#!/bin/sh
# attention_advice.sh - attention is not "memory-bound operators" advice
# (recommend.c's rule_memory_bound, flops.c's f_sdpa; review 32g #1, #3):
#  unfused: eager attention on an A100 in bf16: aten::bmm Q.K^T
#    [[96,512,64],[96,64,512]] writes a 512 x 512 score matrix per head,
#    aten::_softmax [[8,12,512,512]] reads and writes it, aten::bmm
#    [[96,512,512],[96,512,64]] reads it (1000 us each, 63-151 GB/s of
#    1555): the finding names scaled_dot_product_attention, not
#    elementwise fusion nor channels_last, and its what-if takes the rows'
#    whole time (an upper bound on what fused attention saves).
#  mixed / mixed_conv: Q.K^T and softmax beside an fp32 aten::add of two
#    2^24 tensors (1200 us): the attention rows get the attention advice,
#    the add the fusion advice; channels_last only where convolution rows
#    hold 3% of device time (mixed_conv: a 300 us aten::conv2d; mixed: 10).
#  flash / flash_full: one aten::_flash_attention_forward, q/k/v
#    [16,559,16,64] bf16 (73.3 MB), in a 113 us kernel (649 GB/s of 1555)
#    with is_causal True (Concrete Inputs, index 8 of the ATen schema) and
#    Sq == Sk: 4*16*16*559^2*64 / 2 = 10,239,377,408 FLOPs (half of the
#    full count, flash_full's is_causal False), AI 139.75 FLOP/B, under the
#    bf16 ridge (312 / 1.555 = 200): memory-bound by the model, yet fused
#    attention is no memory-bound operator to fuse: no finding.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "attention advice" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
d = sys.argv[1]
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
def K(name, ts, dur, corr, stream=7):
    return X("kernel", name, ts, dur, pid=0, tid=stream, correlation=corr,
             device=0, stream=stream)
def call(ts, dur, corr, name="cudaLaunchKernel"):
    return X("cuda_runtime", name, ts, dur, correlation=corr)
# an op launched at ts (host) whose kernel runs from kts (device)
def op(name, ts, dims, types, corr, kernel, kdur, kts, concrete=None):
    a = {"Input Dims": dims, "Input type": types}
    if concrete:
        a["Concrete Inputs"] = concrete
    return [X("cpu_op", name, ts, 8, **a), call(ts + 2, 5, corr),
            K(kernel, kts, kdur, corr)]
BF = "c10::BFloat16"
GEMM = "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_32x5_nn"
SOFTMAX = ("void (anonymous namespace)::cunn_SoftMaxForward<8, c10::BFloat16,"
           " float, c10::BFloat16, (anonymous namespace)::SoftMaxForwardEpilogue>")
def qk(corr, kts):
    return op("aten::bmm", 10 * corr, [[96, 512, 64], [96, 64, 512]],
              [BF, BF], corr, GEMM, 1000, kts)
def softmax(corr, kts):
    return op("aten::_softmax", 10 * corr, [[8, 12, 512, 512], [], []],
              [BF, "Int", "Bool"], corr, SOFTMAX, 1000, kts)
def pv(corr, kts):
    return op("aten::bmm", 10 * corr, [[96, 512, 512], [96, 512, 64]],
              [BF, BF], corr, GEMM, 1000, kts)
def add(corr, kts):
    return op("aten::add", 10 * corr, [[1 << 24], [1 << 24]],
              ["float", "float"], corr, "vectorized_elementwise_kernel",
              1200, kts)
def conv(corr, kts, us):
    return op("aten::conv2d", 10 * corr, [], [], corr,
              "cudnn::implicit_convolve_sgemm", us, kts)
# the ops launched from 10 us on, the host then waiting for the device
def step(dur, body):
    return ([X("user_annotation", "ProfilerStep#1", 0, dur)] + body +
            [call(50, dur - 55, 99, "cudaDeviceSynchronize")])
def flash(causal):
    q = [16, 559, 16, 64]
    return step(200, op("aten::_flash_attention_forward", 10,
        [q, q, q, [], [], [], [], [], [], [], []],
        [BF, BF, BF, "", "", "Int", "Int", "Double", "Bool", "Bool", "Double"],
        1, "void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<64,"
        " 128, 128, 4, false, false, cutlass::bfloat16_t> >(Flash_fwd_params)",
        113, 60, concrete=["", "", "", "", "", "559", "559", "0.",
                       causal, "False", "0.125"]))
cases = {
    "unfused": step(3100, qk(1, 60) + softmax(2, 1060) + pv(3, 2060)),
    "mixed": step(3300, add(1, 60) + qk(2, 1260) + softmax(3, 2260) +
                  conv(4, 3260, 10)),
    "mixed_conv": step(3600, add(1, 60) + qk(2, 1260) + softmax(3, 2260) +
                       conv(4, 3260, 300)),
    "flash": flash("True"),
    "flash_full": flash("False"),
}
A100 = [{"id": 0, "name": "NVIDIA A100-SXM4-40GB", "computeMajor": 8,
         "computeMinor": 0, "numSms": 108}]
for name, ev in cases.items():
    json.dump({"deviceProperties": A100, "traceEvents": ev},
              open("%s/%s.pt.trace.json" % (d, name), "w"))
PY
cat > "$T_DIR/mb.py" << 'PY'
import json, sys
r = json.load(open(sys.argv[2]))["runs"][0]
x = [x for x in r["recommendations"] + r.get("observations", [])
     if x["id"] == "memory_bound_ops"]
t = x[0]["text"] if x else None
w = [w for w in r["critical_path"]["what_if"] if w["id"] == "memory_bound_ops"]
PY
for c in unfused mixed mixed_conv flash flash_full; do
    "$PR_BIN" -q --input "$T_DIR/$c.pt.trace.json" --json "$T_DIR/$c.json"
    check "$c: summary written (exit $?)" [ -s "$T_DIR/$c.json" ]
done
check "unfused attention: SDPA advice with its rows, no fusion or channels_last" \
    python3 -c "
import sys; exec(open(sys.argv[1]).read())
assert t is not None
assert t.count('aten::') == 3 and 'aten::_softmax [[8, 12, 512, 512]' in t, t
assert 'These rows work on a 512 x 512 score matrix: attention computed unfused' in t, t
assert 'torch.nn.functional.scaled_dot_product_attention' in t, t
assert 'attn_implementation=\"sdpa\"' in t and 'FlashAttention' in t, t
assert 'fuse elementwise' not in t and 'channels_last' not in t, t
ev = {e['name'] for e in x[0]['evidence']}
assert ev == {'aten::_softmax', 'aten::bmm'}, x[0]['evidence']
" "$T_DIR/mb.py" "$T_DIR/unfused.json"
check "  its what-if takes the three rows' kernels whole: 3000 us" python3 -c "
import sys; exec(open(sys.argv[1]).read())
assert w and abs(w[0]['gain_us'] - 3000) < 1, w
" "$T_DIR/mb.py" "$T_DIR/unfused.json"
check "mixed: attention advice for its rows, fusion for the add, no channels_last" \
    python3 -c "
import sys; exec(open(sys.argv[1]).read())
assert t.startswith('aten::add [[16777216], [16777216]]'), t
assert 'Of these, the attention rows work on a 512 x 512 score matrix' in t, t
assert 'The other memory-bound ops run far below the bandwidth roof: fuse elementwise chains' in t, t
assert 'channels_last' not in t, t
" "$T_DIR/mb.py" "$T_DIR/mixed.json"
check "mixed_conv: 300 us of convolution: channels_last said" python3 -c "
import sys; exec(open(sys.argv[1]).read())
assert 'use channels_last for convolutional nets' in t, t
" "$T_DIR/mb.py" "$T_DIR/mixed_conv.json"
check "flash attention, causal, Sq == Sk: half the FLOPs; no memory-bound finding" \
    python3 -c "
import sys; exec(open(sys.argv[1]).read())
o = [o for o in r['operators'] if o['name'] == 'aten::_flash_attention_forward'][0]
assert o['flops'] == 10239377408, o
assert o['bound'] == 'memory', o
assert t is None and not w, (t, w)
" "$T_DIR/mb.py" "$T_DIR/flash.json"
check "flash attention, not causal: the full count" python3 -c "
import sys; exec(open(sys.argv[1]).read())
o = [o for o in r['operators'] if o['name'] == 'aten::_flash_attention_forward'][0]
assert o['flops'] == 20478754816, o
assert t is None, t
" "$T_DIR/mb.py" "$T_DIR/flash_full.json"
echo "1..$T_N"
