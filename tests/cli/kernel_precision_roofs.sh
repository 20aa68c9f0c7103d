#!/bin/sh
# kernel_precision_roofs.sh - hunt30 #10: the roofline draws the tensor
# roof of the 8- and 4-bit formats the kernels' matrix instructions ran
# in, not only the roofs of the operators' input dtypes.  Hand-made
# traces, each an aten::mm of bf16 inputs (64x64 @ 64x64, an nvjet bf16
# GEMM: a BF16 point, so a chart is drawn) beside a vllm::moe_forward
# (no FLOP model, no point) whose kernel is named by TRT-LLM's gen GEMMs
# (bmm_<out>_<A><B>_...):
#   b200_mx:   MXFP4 weights x MXFP8 activations (MxE2m1MxE4m3): the
#              FP8 MMA (tcgen05 f8f6f4 runs at the FP8 rate), so the FP8
#              roof (4500) is drawn and no FP4 one;
#   b200_fp4:  E2m1 x E2m1 (NVFP4 x NVFP4): the FP4 roof, 9000 on an
#              HGX B200 (NVIDIA datasheet, dense), 2x its FP8;
#   h100_fp4:  the same FP4 kernel named on an H100, which has no FP4
#              peak: no FP4 roof (and the FP4 peak is null);
#   b200_bf16: no 8- or 4-bit kernel: BF16 and FP32 only, as before.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
    skip "kernel precision roofs" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" <<'PY'
import json, sys
d = sys.argv[1]
MX = ("bmm_Bfloat16_MxE2m1MxE4m3_Fp32_t128x8x512u2_s3_et128x8_m128x8x64_"
      "cga1x1x1_16dp256b_rM_TN_transOut_schedS_bN_sm100f")
FP4 = ("bmm_E2m1_E2m1E2m1_Fp32_t128x8x512u2_s3_et128x8_m128x8x64_"
       "cga1x1x1_16dp256b_rM_TN_transOut_schedS_sm100a")
def trace(path, dev, moe_kernel):
    ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
           "pid": 1, "tid": 1, "ts": 0, "dur": 400, "args": {}}]
    def op(name, ts, dur, ext, dims=None, types=None):
        a = {"External id": ext}
        if dims:
            a["Input Dims"] = dims
            a["Input type"] = types
        ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1,
                   "tid": 1, "ts": ts, "dur": dur, "args": a})
    def kernel(name, ts, corr, kts, kdur):
        ev.append({"ph": "X", "cat": "cuda_runtime",
                   "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                   "ts": ts, "dur": 1, "args": {"correlation": corr}})
        ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0,
                   "tid": 7, "ts": kts, "dur": kdur,
                   "args": {"correlation": corr, "device": 0,
                            "stream": 7}})
    op("aten::mm", 10, 20, 1, [[64, 64], [64, 64]],
       ["c10::BFloat16", "c10::BFloat16"])
    kernel("nvjet_tst_64x64_64x16_2x1_2cta_v_bz_TNT", 11, 101, 40, 20)
    op("vllm::moe_forward", 100, 50, 2, [[64, 2880]], ["c10::BFloat16"])
    if moe_kernel:
        kernel(moe_kernel, 101, 102, 120, 100)
    json.dump({"deviceProperties": [dev], "traceEvents": ev},
              open(path, "w"))
b200 = {"id": 0, "name": "NVIDIA B200", "computeMajor": 10,
        "computeMinor": 0, "numSms": 148, "totalGlobalMem": 191468666880}
h100 = {"id": 0, "name": "NVIDIA H100 80GB HBM3", "computeMajor": 9,
        "computeMinor": 0, "numSms": 132, "totalGlobalMem": 85520809984}
trace(d + "/b200_mx.json", b200, MX)
trace(d + "/b200_fp4.json", b200, FP4)
trace(d + "/h100_fp4.json", h100, FP4)
trace(d + "/b200_bf16.json", b200, None)
PY

cat > "$T_DIR/roofs.py" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
roofs = (r.get('roofline') or {}).get('roofs') or []
pk = r['devices'][0]['peak_tflops']
print(' '.join('%s=%g' % (x['key'], x['tflops']) for x in roofs),
      'fp4_peak=%s' % pk.get('fp4_tensor'))
PY

for t in b200_mx b200_fp4 h100_fp4 b200_bf16; do
    "$PR_BIN" --input "$T_DIR/$t.json" --json "$T_DIR/$t.out.json" \
        >/dev/null 2>"$T_DIR/$t.err"
    echo $? >"$T_DIR/$t.rc"
done

got=$(python3 "$T_DIR/roofs.py" "$T_DIR/b200_mx.out.json" 2>&1)
check "MXFP4 x MXFP8 kernels on a B200: the FP8 roof, no FP4 one ($got)" \
    test "$got" = "bf16_tensor=2250 fp8_tensor=4500 fp4_peak=9000"
got=$(python3 "$T_DIR/roofs.py" "$T_DIR/b200_fp4.out.json" 2>&1)
check "FP4 x FP4 kernels on a B200: the FP4 roof at 9000 ($got)" \
    test "$got" = "bf16_tensor=2250 fp4_tensor=9000 fp4_peak=9000"
got=$(python3 "$T_DIR/roofs.py" "$T_DIR/h100_fp4.out.json" 2>&1)
check "an FP4 kernel named on an H100 (no FP4 peak): no FP4 roof ($got)" \
    test "$got" = "bf16_tensor=989.5 fp4_peak=None"
got=$(python3 "$T_DIR/roofs.py" "$T_DIR/b200_bf16.out.json" 2>&1)
check "no 8- or 4-bit kernel: the operators' roofs only ($got)" \
    test "$got" = "bf16_tensor=2250 fp4_peak=9000"

# table --why says which format the MMA runs in where it differs from
# the narrowest the name states, and says nothing where it does not
"$PR_BIN" table --why "bmm_Bfloat16_MxE2m1MxE4m3_Fp32_t128x8x512u2_s3_et128x8_m128x8x64_cga1x1x1_16dp256b_rM_TN_transOut_schedS_bN_sm100f" \
    >"$T_DIR/why_mx.txt" 2>&1
check "--why of an MXFP4 x MXFP8 GEMM: precision mxfp4, mma mxfp8" \
    sh -c "grep -q '^precision  mxfp4' '$T_DIR/why_mx.txt' && grep -q '^mma        mxfp8' '$T_DIR/why_mx.txt'"
"$PR_BIN" table --why "_matmul_ogs_NNT_bf16xbf16xbf16_128x256x64x1" \
    >"$T_DIR/why_bf16.txt" 2>&1
check "--why of a bf16 x bf16 triton_kernels GEMM: no mma line" \
    sh -c "grep -q '^precision  bf16' '$T_DIR/why_bf16.txt' && ! grep -q '^mma' '$T_DIR/why_bf16.txt'"

echo "1..$T_N"
