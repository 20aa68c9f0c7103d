#!/bin/sh
# tc_compute_share.sh - the tensor-core share beside the collectives
# (ds_train: 39.0% of all kernel time, with DeepEP's 113.0 of 244.0 ms of
# collective kernels in it; 72.6% of the rest).  tc_kernel_time_pct keeps
# the TensorBoard plugin's basis, all kernels; tc_compute_kernel_time_pct,
# the share of the non-collective kernels' time, is written and shown
# where collectives take 10% or more of kernel time.
#
# 1. A hand-made A100 step: an sm80_xmma TF32 GEMM (600 us), an elementwise
#    kernel (200 us) and an NCCL all-reduce (400 us).  Known answer: 50.0%
#    of all kernel time, 75.0% of the 800 us outside the collective, that
#    75.0% in the HTML's Overview and Tensor cores captions (and the
#    PDF's; the terminal shows no share).
# 2. The same with the all-reduce at 50 us (5.6% of kernel time): the key
#    absent, 70.6% of all kernel time, the captions as before.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "tensor-core share of compute kernels" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" << 'PY'
import json, os, sys
d = sys.argv[1]
XMMA = ("sm80_xmma_gemm_tf32f32_tf32f32_f32_nn_n_tilesize128x128x16_"
        "stage4_warpsize2x2x1_tensor16x8x8_kernel")
EW = ("void at::native::vectorized_elementwise_kernel<4, "
      "at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >"
      "(int, at::native::CUDAFunctor_add<float>, "
      "at::detail::Array<char*, 3>)")
NCCL = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"
A100 = [{"id": 0, "name": "NVIDIA A100-SXM4-40GB", "computeMajor": 8,
         "computeMinor": 0, "numSms": 108, "totalGlobalMem": 42505273344}]

def step(nccl_us):
    ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
           "pid": 1, "tid": 1, "ts": 0, "dur": 2000, "args": {}}]
    kts = 20
    for i, (op, k, dur) in enumerate([("aten::mm", XMMA, 600),
                                      ("aten::add", EW, 200),
                                      ("c10d::allreduce_", NCCL, nccl_us)]):
        ext, corr, ts = 1 + i, 101 + i, 10 + 20 * i
        ev.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": 1,
                   "tid": 1, "ts": ts, "dur": 10,
                   "args": {"External id": ext}})
        ev.append({"ph": "X", "cat": "cuda_runtime",
                   "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                   "ts": ts + 1, "dur": 2,
                   "args": {"correlation": corr, "External id": ext}})
        ev.append({"ph": "X", "cat": "kernel", "name": k, "pid": 0,
                   "tid": 7, "ts": kts, "dur": dur,
                   "args": {"correlation": corr, "device": 0, "stream": 7,
                            "External id": ext}})
        kts += dur + 5
    return {"deviceProperties": A100, "traceEvents": ev}

json.dump(step(400), open(os.path.join(d, "coll.json"), "w"))
json.dump(step(50), open(os.path.join(d, "few.json"), "w"))
PY

for c in coll few; do
    "$PR_BIN" -q --input "$T_DIR/$c.json" --json "$T_DIR/$c.s.json"
    check "$c: summary written (exit $?)" [ -s "$T_DIR/$c.s.json" ]
    "$PR_BIN" -q --input "$T_DIR/$c.json" --html "$T_DIR/$c.html" \
        --pdf "$T_DIR/$c.pdf"
done
check "collectives 33% of kernel time: 50.0% of all, 75.0% of the rest" \
    python3 -c "
import json, sys
tc = json.load(open(sys.argv[1]))['runs'][0]['tensor_cores']
assert abs(tc['tc_kernel_time_pct'] - 50.0) < 0.01, tc
assert abs(tc['tc_compute_kernel_time_pct'] - 75.0) < 0.01, tc
" "$T_DIR/coll.s.json"
check "the HTML's two captions give the 75.0%" \
    sh -c '[ "$(grep -o "kernel time; 75\.0% of the kernel time outside collectives" "$1" | wc -l)" -eq 2 ]' _ "$T_DIR/coll.html"
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext "$T_DIR/coll.pdf" "$T_DIR/coll.pdf.txt"
    check "the PDF's captions give the 75.0%" \
        sh -c 'tr "\n" " " < "$1" | grep -q "75\.0% of the kernel time outside collectives"' _ "$T_DIR/coll.pdf.txt"
else
    skip "PDF captions" "no pdftotext"
fi
check "collectives under 10%: no key" python3 -c "
import json, sys
tc = json.load(open(sys.argv[1]))['runs'][0]['tensor_cores']
assert 'tc_compute_kernel_time_pct' not in tc, tc
assert abs(tc['tc_kernel_time_pct'] - 60000 / 850) < 0.01, tc
" "$T_DIR/few.s.json"
check "collectives under 10%: no caption" \
    sh -c '! grep -q "outside collectives" "$1"' _ "$T_DIR/few.html"
echo "1..$T_N"
