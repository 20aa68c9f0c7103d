#!/bin/sh
# amd_grid.sh - review 32g #4, #5, #8 on hand-made ROCm traces (an MI300X,
# 304 CUs).
#  #4: a kernel launched with hipExtModuleLaunchKernel records its grid as
#   the global work size in work-items (HIP's hip_ext.h:
#   hipExtModuleLaunchKernel(f, globalWorkSizeX, ..., localWorkSizeX, ...)),
#   other launches in workgroups: a hipBLASLt Cijk_* GEMM of grid 65536
#   and block 256 is 256 workgroups, 0.84 a CU (not 215.6), and MIOpen's
#   batched_transpose of grid 16384 is 64, 0.21 a CU (the low_occupancy
#   line names it); the same kernel through hipModuleLaunchKernel keeps
#   16384 workgroups (53.9 a CU).
#  #5: a kernel name of over 3,000 characters appears in the low_occupancy
#   text in the Kernels table's short form, so its figures and advice end
#   the sentence whole.
#  #8: the texts say workgroups per CU, matrix cores (MFMA), HIP runtime
#   calls and HIP graphs on an AMD device; NVIDIA's keep their words.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "amd grid" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
d = sys.argv[1]
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
def K(name, ts, dur, corr, **kw):
    return X("kernel", name, ts, dur, pid=0, tid=7, correlation=corr,
             device=0, stream=7, **kw)
def call(ts, dur, corr, name="hipLaunchKernel"):
    return X("cuda_runtime", name, ts, dur, correlation=corr)
def step(dur):
    return X("user_annotation", "ProfilerStep#1", 0, dur)
MI300X = [{"id": 0, "name": "AMD Instinct MI300X", "totalGlobalMem": 206141652992,
           "computeMajor": 9, "computeMinor": 4, "maxThreadsPerBlock": 1024,
           "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 131072,
           "warpSize": 64, "sharedMemPerBlock": 65536, "numSms": 304,
           "maxSharedMemoryPerMultiProcessor": 65536}]
CIJK = "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x192x64_MI16x16x1_SN_LDSB1"
BN = ("void at::native::batch_norm_backward_kernel<" +
      "c10::BFloat16, " * 200 + "float>(at::GenericPackedTensorAccessor<"
      "c10::BFloat16 const, 3ul, at::RestrictPtrTraits, int>)")
cases = {
    # a hipBLASLt GEMM launched with hipExtModuleLaunchKernel: grid 65536
    # work-items of blocks of 256 = 256 workgroups on 304 CUs; a PyTorch
    # kernel with a name of over 3,000 characters launched with
    # hipLaunchKernel: grid 64 workgroups
    "grid": [step(1000), X("cpu_op", "aten::foo", 0, 20),
             call(2, 5, 1, "hipExtModuleLaunchKernel"),
             K(CIJK, 10, 500, 1, grid=[65536, 1, 1], block=[256, 1, 1]),
             call(8, 5, 2),
             K(BN, 520, 400, 2, grid=[64, 1, 1], block=[1024, 1, 1]),
             call(14, 920, 3, "hipDeviceSynchronize")],
    # MIOpen's transpose, launched the same way: grid 16384 work-items of
    # 256 = 64 workgroups, 0.21 a CU; the same kernel through
    # hipModuleLaunchKernel with grid 16384 is 16384 workgroups, 53.9 a CU
    "transpose": [step(1000), X("cpu_op", "aten::foo", 0, 20),
             call(2, 5, 1, "hipExtModuleLaunchKernel"),
             K("batched_transpose_32x32_half", 10, 500, 1,
               grid=[16384, 1, 1], block=[256, 1, 1]),
             call(8, 5, 2, "hipModuleLaunchKernel"),
             K("batched_transpose_16x16_half", 520, 400, 2,
               grid=[16384, 1, 1], block=[256, 1, 1]),
             call(14, 920, 3, "hipDeviceSynchronize")],
    "misaligned": [step(1020),
        X("cpu_op", "aten::mm", 0, 8, **{"Input Dims": [[1001, 1001], [1001, 1001]],
          "Input type": ["c10::Half", "c10::Half"]}), call(2, 5, 1),
        K("void gemmSN_NN_kernel<__half, 256, 4, 2, 8, 4, 4, false>", 10, 1000, 1),
        call(10, 1005, 2, "hipDeviceSynchronize")],
    "graphs": [step(210)] +
        [call(20 * i, 20, i + 1) for i in range(10)] +
        [K("vectorized_elementwise_kernel", 20 * i + 15, 3, i + 1)
         for i in range(10)],
}
# the same launches without a step: a capture of the loop's iterations
cases["graphs_capture"] = cases["graphs"][1:]
# 120 launches of 20 µs, each 3 µs kernel 15 µs after its launch, no step
cases["launches"] = ([call(20 * i, 20, i + 1) for i in range(120)] +
    [K("vectorized_elementwise_kernel", 20 * i + 15, 3, i + 1)
     for i in range(120)])
for name, ev in cases.items():
    json.dump({"deviceProperties": MI300X, "traceEvents": ev},
              open("%s/%s.pt.trace.json" % (d, name), "w"))
A100 = [{"id": 0, "name": "NVIDIA A100-SXM4-40GB", "computeMajor": 8,
         "computeMinor": 0, "numSms": 108}]
nv = [dict(e, name="cudaLaunchKernel") if e["cat"] == "cuda_runtime" else e
      for e in cases["launches"]]
json.dump({"deviceProperties": A100, "traceEvents": nv},
          open("%s/launches_nv.pt.trace.json" % d, "w"))
PY

for c in grid transpose misaligned launches launches_nv; do
    "$PR_BIN" -q --input "$T_DIR/$c.pt.trace.json" --json "$T_DIR/$c.json" \
        2> "$T_DIR/err"
    check "$c: summary written (exit $?; $(head -c 200 "$T_DIR/err"))" \
        [ -s "$T_DIR/$c.json" ]
done
# get.py FILE ID: the text of rule ID (a recommendation or observation)
cat > "$T_DIR/get.py" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
t = [x["text"] for x in r["recommendations"] + r.get("observations", [])
     if x["id"] == sys.argv[2]]
print(t[0] if t else "")
PY
bps() { # FILE NAME-PREFIX -> mean_blocks_per_sm, 4 places
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
k = [x for x in r['kernels'] if x['name'].startswith(sys.argv[2])][0]
print('%.4f' % k['mean_blocks_per_sm'])" "$1" "$2"
}
check "hipExtModuleLaunchKernel GEMM: 256 workgroups, 0.8421 a CU (got $(bps "$T_DIR/grid.json" Cijk_))" \
    test "$(bps "$T_DIR/grid.json" Cijk_)" = 0.8421
check "hipLaunchKernel: the grid is workgroups, 64 / 304 = 0.2105 (got $(bps "$T_DIR/grid.json" 'void at::native::batch_norm'))" \
    test "$(bps "$T_DIR/grid.json" 'void at::native::batch_norm')" = 0.2105
check "hipExtModuleLaunchKernel transpose: 0.2105 a CU (got $(bps "$T_DIR/transpose.json" batched_transpose_32x32))" \
    test "$(bps "$T_DIR/transpose.json" batched_transpose_32x32)" = 0.2105
check "hipModuleLaunchKernel: 16384 workgroups, 53.8947 a CU (got $(bps "$T_DIR/transpose.json" batched_transpose_16x16))" \
    test "$(bps "$T_DIR/transpose.json" batched_transpose_16x16)" = 53.8947
python3 "$T_DIR/get.py" "$T_DIR/transpose.json" low_occupancy > "$T_DIR/t.txt"
check "low_occupancy names the small hipExt grid only ($(cat "$T_DIR/t.txt"))" \
    sh -c "grep -q '^batched_transpose_32x32_half: 55.6% of kernel time, 0.21 workgroups per CU\. Under one workgroup per CU the grid leaves CUs idle' '$T_DIR/t.txt' && ! grep -q 16x16 '$T_DIR/t.txt'"
python3 "$T_DIR/get.py" "$T_DIR/grid.json" low_occupancy > "$T_DIR/g.txt"
check "a 3,000-character name: the short form, then the figures and the advice whole ($(cat "$T_DIR/g.txt"))" \
    python3 -c "
import sys
t = open(sys.argv[1]).read().strip()
assert t.startswith('batch_norm_backward_kernel<'), t
assert ': 44.4% of kernel time, 0.21 workgroups per CU. ' in t, t
assert t.endswith('raise the batch size or merge small launches.'), t
assert len(t) < 400 and 'nan' not in t, t
" "$T_DIR/g.txt"
nv_words='Tensor[ -]core|tensor[ -]core|CUDA graph|CUDA runtime|\bSMs?\b|per SM'
for c in grid transpose; do
    check "$c: low_occupancy in AMD's words" sh -c \
        "python3 '$T_DIR/get.py' '$T_DIR/$c.json' low_occupancy | grep -q CU && ! python3 '$T_DIR/get.py' '$T_DIR/$c.json' low_occupancy | grep -qE '$nv_words'"
done
python3 "$T_DIR/get.py" "$T_DIR/misaligned.json" misaligned_dims > "$T_DIR/m.txt"
check "misaligned_dims on AMD: matrix cores (MFMA) ($(cat "$T_DIR/m.txt"))" \
    sh -c "grep -q 'The matrix cores (MFMA) run these dims best in multiples of 8' '$T_DIR/m.txt' && ! grep -qE '$nv_words' '$T_DIR/m.txt'"
python3 "$T_DIR/get.py" "$T_DIR/launches.json" launch_bound > "$T_DIR/l.txt"
check "launch_bound on AMD: HIP runtime calls, HIP graphs ($(cat "$T_DIR/l.txt"))" \
    sh -c "grep -q 'HIP runtime calls take' '$T_DIR/l.txt' && grep -q 'Capture each iteration in a HIP graph' '$T_DIR/l.txt' && ! grep -qE '$nv_words' '$T_DIR/l.txt'"
python3 "$T_DIR/get.py" "$T_DIR/launches_nv.json" launch_bound > "$T_DIR/n.txt"
check "launch_bound on NVIDIA keeps CUDA's words ($(cat "$T_DIR/n.txt"))" \
    sh -c "grep -q 'CUDA runtime calls take' '$T_DIR/n.txt' && grep -q 'Capture each iteration in a CUDA graph' '$T_DIR/n.txt'"

echo "1..$T_N"
