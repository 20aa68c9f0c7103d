#!/bin/sh
# flash_aux_no_mma.sh - issue #28: the kernel table's "no_matrix_math"
# rules.  FlashAttention's backward preprocess (dot(dO, O) row sums) and
# dQ convert (fp32 dQaccum scaled and cast to bf16; its TiledMma template
# argument only lays out registers: hopper/flash_bwd_postprocess_kernel.h
# calls no gemm) run on CUDA cores with no precision in their names, but do
# no matrix math: they must not make the operator that launched them
# "fp32" with an "fp32 kernel" as evidence, nor count as matrix math moved
# off tensor cores.  Hand-made H800 trace: one FlashAttnFuncBackward
# launching FA3's backward (FlashAttnBwdSm90, bf16, 300 us), its
# preprocess (40 us) and its dQ convert (60 us); a second operator,
# fmha_sm50 (PyTorch mem-efficient attention built for sm50: fp32 matrix
# math on CUDA cores, 100 us), keeps its fp32 reading.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "FlashAttention aux kernels" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" <<'PY'
import json, sys
d = sys.argv[1]
ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
       "pid": 1, "tid": 1, "ts": 0, "dur": 700,
       "args": {"External id": 1000}}]
ops = [("FlashAttnFuncBackward", [
          ("void cutlass::device_kernel<flash::enable_sm90_or_later<flash::"
           "FlashAttnBwdPreprocess<cute::tuple<cute::C<128>, cute::C<128> >, "
           "cutlass::bfloat16_t, float, cutlass::arch::Sm90, true, false> > >"
           "(flash::FlashAttnBwdPreprocess<>::Params)", 40),
          ("void cutlass::device_kernel<flash::enable_sm90_or_later<flash::"
           "FlashAttnBwdSm90<flash::CollectiveMainloopBwdSm90<2, cute::tuple<"
           "cute::C<1>, cute::C<1>, cute::C<1> >, cute::tuple<cute::C<64>, "
           "cute::C<128>, cute::C<128> >, cutlass::bfloat16_t, float, "
           "cutlass::arch::Sm90, true, false> > > >(flash::FlashAttnBwdSm90<>"
           "::Params)", 300),
          ("void cutlass::device_kernel<flash::enable_sm90_or_later<flash::"
           "FlashAttnBwdPostprocessConvertdQ<cute::tuple<cute::C<64>, "
           "cute::C<128> >, cutlass::bfloat16_t, float, cutlass::arch::Sm90, "
           "256, cute::TiledMMA<cute::MMA_Atom<cute::SM90_64x128x16_F32BF16"
           "BF16_SS<cute::GMMA::Major::K, cute::GMMA::Major::K> > >, false> > >"
           "(flash::FlashAttnBwdPostprocessConvertdQ<>::Params)", 60)]),
       ("MemEffAttnSm50", [
          ("fmha_cutlassF_f32_aligned_64x64_rf_sm50(PyTorchMemEffAttention::"
           "AttentionKernel<float, cutlass::arch::Sm50, true, 64, 64, 64, "
           "true, true>::Params)", 100)])]
ts_h, ts_d, corr, ext = 10, 50, 100, 1
for op, ks in ops:
    ev.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": 1, "tid": 1,
               "ts": ts_h, "dur": 5 * len(ks) + 2,
               "args": {"External id": ext}})
    for i, (name, dur) in enumerate(ks):
        ev.append({"ph": "X", "cat": "cuda_runtime",
                   "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                   "ts": ts_h + 1 + 5 * i, "dur": 2,
                   "args": {"correlation": corr, "External id": ext}})
        ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0,
                   "tid": 7, "ts": ts_d, "dur": dur,
                   "args": {"device": 0, "stream": 7, "correlation": corr,
                            "External id": ext}})
        ts_d += dur
        corr += 1
    ts_h += 5 * len(ks) + 10
    ext += 1
json.dump({"schemaVersion": 1,
           "deviceProperties": [{"id": 0, "name": "NVIDIA H800",
                                 "computeMajor": 9, "computeMinor": 0,
                                 "warpSize": 32, "numSms": 132}],
           "traceEvents": ev}, open(d + "/fa.json", "w"))
PY

"$PR_BIN" -q --input "$T_DIR/fa.json" --json "$T_DIR/fa.out.json" \
    2> "$T_DIR/err"
check "report written (exit $?; $(head -c 200 "$T_DIR/err"))" \
    [ -s "$T_DIR/fa.out.json" ]

python3 - "$T_DIR/fa.out.json" > "$T_DIR/why" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
bad = []
ops = {o["name"]: o for o in r["operators"]}
fa = ops.get("FlashAttnFuncBackward")
if fa is None:
    bad.append("no FlashAttnFuncBackward row")
elif fa.get("dtype") == "fp32":
    bad.append("FlashAttnFuncBackward dtype fp32")
me = ops.get("MemEffAttnSm50")
if me is None or me.get("dtype") != "fp32":
    bad.append("MemEffAttnSm50 dtype %s, want fp32" % (me and me.get("dtype")))
text = json.dumps(r)
if "FlashAttnBwdPostprocess" in json.dumps(r["tensor_cores"]) or \
   "FlashAttnBwdPreprocess" in json.dumps(r["tensor_cores"]):
    bad.append("an aux kernel named in tensor_cores findings")
rows = {k["kernel_rule"]: k for k in r["kernels"] if k.get("kernel_rule")}
if rows.get("flash_attn3.aux", {}).get("family") != "attention":
    bad.append("aux kernels not in the attention family")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
check "FA3 preprocess and dQ convert leave the operator's dtype alone; fp32 mem-eff attention stays fp32 ($(cat "$T_DIR/why"))" \
    [ $? -eq 0 ]

echo "1..$T_N"
