#!/bin/sh
# tc_partly_off.sh - review 28g #7: an eligible operator that used tensor
# cores for part of its work and CUDA cores for a large share of the rest
# is listed among the eligible operators not using tensor cores, with the
# time off them and the kernels that ran there.
#
# 1. A hand-made A100 step without Input Dims: two aten::cudnn_convolution
#    calls, one on an sm80_xmma TF32 fprop kernel (300 us), the other an FFT
#    convolution (fft2d_r2c_32x32 100 us, ampere_gcgemm_64x64_nt 200 us,
#    fft2d_c2r_32x32 100 us).  Known answer: a finding partly_cuda_cores of
#    400 us (57% of the operator's 700 us) naming the three FFT kernels by
#    their short names, with cuDNN's benchmark mode as the advice (the run
#    has TF32 conv kernels).
# 2. The same with the FFT kernels at 30 + 60 + 30 us beside 1000 us of
#    TF32: 11% off tensor cores, no finding.
# 3. alexnet (hta critical_path): aten::cudnn_convolution's fp32 scudnn and
#    FFT kernels, 3.27 ms, listed.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "operators partly off tensor cores" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" << 'PY'
import json, os, sys
d = sys.argv[1]
XMMA = ("sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_"
        "tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_kernel")
R2C = ("void fft2d_r2c_32x32<float, false, 0u, false>(float2*, float const*, "
       "int, int, int, int, int, int, int, int, int, cudnn::reduced_divisor, "
       "bool, int2, int, int)")
GC = "ampere_gcgemm_64x64_nt"
C2R = ("void fft2d_c2r_32x32<float, false, false, 0u, false, false>(float*, "
       "float2 const*, int, int, int, int, int, int, int, int, int, float, "
       "float, cudnn::reduced_divisor, bool, float*, float*, int2, int, int)")
A100 = [{"id": 0, "name": "NVIDIA A100-SXM4-40GB", "computeMajor": 8,
         "computeMinor": 0, "numSms": 108, "totalGlobalMem": 42505273344}]

def step(tc_us, fft_us):
    ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
           "pid": 1, "tid": 1, "ts": 0, "dur": 4000, "args": {}}]
    st = {"corr": 100, "kts": 20}
    def op(name, ts, ext, kernels):
        ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1,
                   "tid": 1, "ts": ts, "dur": 40,
                   "args": {"External id": ext}})
        for i, (k, dur) in enumerate(kernels):
            st["corr"] += 1
            ev.append({"ph": "X", "cat": "cuda_runtime",
                       "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                       "ts": ts + 1 + 5 * i, "dur": 2,
                       "args": {"correlation": st["corr"],
                                "External id": ext}})
            ev.append({"ph": "X", "cat": "kernel", "name": k, "pid": 0,
                       "tid": 7, "ts": st["kts"], "dur": dur,
                       "args": {"correlation": st["corr"], "device": 0,
                                "stream": 7, "External id": ext}})
            st["kts"] += dur + 5
    op("aten::cudnn_convolution", 10, 1, [(XMMA, tc_us)])
    op("aten::cudnn_convolution", 60, 2,
       [(R2C, fft_us[0]), (GC, fft_us[1]), (C2R, fft_us[2])])
    return {"deviceProperties": A100, "traceEvents": ev}

json.dump(step(300, (100, 200, 100)), open(os.path.join(d, "fft.json"), "w"))
json.dump(step(1000, (30, 60, 30)), open(os.path.join(d, "small.json"), "w"))
PY

for c in fft small; do
    "$PR_BIN" -q -i "$T_DIR/$c.json" --json "$T_DIR/$c.s.json" \
        2> "$T_DIR/$c.err"
    check "$c: summary written (exit $?)" [ -s "$T_DIR/$c.s.json" ]
done

# the one finding of a run for an operator: "reason_id|device_us|reason|advice"
finding() {
    python3 - "$1" "$2" << 'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for f in d["runs"][0]["tensor_cores"]["findings"]:
    if f["operator"] == sys.argv[2]:
        print("%s|%.0f|%s|%s" % (f["reason_id"], f["device_us"], f["reason"],
                                 f["advice"]))
PY
}

f=$(finding "$T_DIR/fft.s.json" aten::cudnn_convolution)
case $f in
partly_cuda_cores\|400\|*) ok "FFT conv beside TF32: a finding of its 400 us off tensor cores" ;;
*) not_ok "FFT conv beside TF32: a finding of its 400 us off tensor cores (got: $f)" ;;
esac
check "the share of the operator's 700 us said" \
    sh -c 'case "$1" in *"0.40 ms of its 0.70 ms (57%) ran on CUDA cores"*) exit 0 ;; esac; exit 1' _ "$f"
check "the FFT kernels named by their short names" \
    sh -c 'case "$1" in *"0.40 ms in FFT convolution kernels (fft2d_r2c_32x32, ampere_gcgemm_64x64_nt, fft2d_c2r_32x32)"*) exit 0 ;; esac; exit 1' _ "$f"
check "the other kernels' TF32 said" \
    sh -c 'case "$1" in *"used tensor cores (TF32)"*) exit 0 ;; esac; exit 1' _ "$f"
check "cuDNN's benchmark mode advised" \
    sh -c 'case "$1" in *"torch.backends.cudnn.benchmark = True"*"(here FFT)"*) exit 0 ;; esac; exit 1' _ "$f"
f=$(finding "$T_DIR/small.s.json" aten::cudnn_convolution)
check "11% off tensor cores: no finding (got: $f)" [ -z "$f" ]

if have_shared &&
    shared_summary alexnet hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz; then
    f=$(finding "$T_DIR/alexnet.json" aten::cudnn_convolution)
    case $f in
    partly_cuda_cores\|327[0-9]\|*"cudnn_ampere_scudnn_128x64_relu_xregs_large_nn_v1"*"fft2d_r2c_32x32, ampere_gcgemm_64x64_nt, fft2d_c2r_32x32"*)
        ok "alexnet: cudnn_convolution's 3.27 ms of scudnn and FFT kernels listed" ;;
    *) not_ok "alexnet: cudnn_convolution's 3.27 ms of scudnn and FFT kernels listed (got: $f)" ;;
    esac
else
    skip "alexnet: cudnn_convolution listed" "no shared traces"
fi

echo "1..$T_N"
