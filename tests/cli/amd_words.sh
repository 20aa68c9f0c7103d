#!/bin/sh
# amd_words.sh - issue #28 item 6 on hand-made traces of an MI300X: an AMD
# run's texts say matrix cores (MFMA), wavefronts, workgroups and CUs, not
# tensor cores, warps, blocks and SMs; the same traces on an A100 keep
# NVIDIA's words.
#  - the misaligned-dims finding's title and its what-if change;
#  - the low-occupancy what-if change (workgroups per CU);
#  - the occupancy KPI's "wavefronts resident / maximum";
#  - the no-operator diagnostic of a GPU-only capture (a public MI210
#   trace of TraceLens reads "tensor cores and the roofline cover no
#   kernel").
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "amd words" "no python3"
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
MI300X = [{"id": 0, "name": "AMD Instinct MI300X", "computeMajor": 9,
           "computeMinor": 4, "maxThreadsPerBlock": 1024,
           "maxThreadsPerMultiprocessor": 2048, "warpSize": 64,
           "numSms": 304, "gcnArchName": "gfx942:sramecc+:xnack-"}]
A100 = [{"id": 0, "name": "NVIDIA A100-SXM4-40GB", "computeMajor": 8,
         "computeMinor": 0, "numSms": 108, "warpSize": 32,
         "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048}]
cases = {
    "misaligned": [step(1020),
        X("cpu_op", "aten::mm", 0, 8, **{"Input Dims": [[1001, 1001], [1001, 1001]],
          "Input type": ["c10::Half", "c10::Half"]}), call(2, 5, 1),
        K("void gemmSN_NN_kernel<__half, 256, 4, 2, 8, 4, 4, false>", 10, 1000, 1),
        call(10, 1005, 2, "hipDeviceSynchronize")],
    "occupancy": [step(1000), X("cpu_op", "aten::foo", 0, 20), call(2, 5, 1),
        K("void at::native::batch_norm_collect_statistics_kernel<float>", 10,
          900, 1, grid=[16, 1, 1], block=[256, 1, 1]),
        call(14, 920, 2, "hipDeviceSynchronize")],
    # an fp32 matmul on a vector-ALU Tensile kernel (no _MI field):
    # TensorBoard's AMP rule fires
    "amp": [step(9000), X("cpu_op", "aten::mm", 1, 30,
        **{"Input Dims": [[4096, 4096], [4096, 4096]],
           "Input type": ["float", "float"]}), call(2, 5, 1),
        K("Cijk_Ailk_Bljk_SB_MT64x64x8_SN_1LDSB0_APM1_ISA942_IU1", 10, 8000, 1,
          grid=[4096, 1, 1], block=[256, 1, 1]),
        call(60, 8900, 2, "hipDeviceSynchronize")],
    # a GPU-only capture: kernels, no operator or runtime event
    "gpu_only": [K("void at::native::vectorized_elementwise_kernel<4>", 10 + 20 * i,
                   10, i + 1) for i in range(20)],
}
for name, ev in cases.items():
    for tag, props in (("amd", MI300X), ("nv", A100)):
        evs = [dict(e, name="volta_sgemm_128x64_nn") if tag == "nv" and
               e["name"].startswith("Cijk_") else
               dict(e, name="cudaLaunchKernel") if tag == "nv" and
               e["name"] == "hipLaunchKernel" else
               dict(e, name="cudaDeviceSynchronize") if tag == "nv" and
               e["name"] == "hipDeviceSynchronize" else e for e in ev]
        json.dump({"deviceProperties": props, "traceEvents": evs},
                  open("%s/%s_%s.pt.trace.json" % (d, name, tag), "w"))
PY

for c in misaligned occupancy gpu_only amp; do
    for v in amd nv; do
        "$PR_BIN" -q --input "$T_DIR/${c}_$v.pt.trace.json" \
            --json "$T_DIR/${c}_$v.json" --html "$T_DIR/${c}_$v.html" \
            2> "$T_DIR/err"
        check "${c}_$v: summary written (exit $?; $(head -c 200 "$T_DIR/err"))" \
            [ -s "$T_DIR/${c}_$v.json" ]
    done
done
# get.py FILE WHAT [ID]: a finding's title, a what-if change, a diagnostic
cat > "$T_DIR/get.py" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
w, i = sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else ""
if w == "title":
    t = [f["title"] for f in r["verdict"]["findings"] if f.get("id") == i]
elif w == "change":
    t = [x["change"] for x in r["critical_path"]["what_if"] if x["id"] == i]
else:
    t = [x["text"] for x in r.get("diagnostics") or [] if x["kind"] == i]
print(t[0] if t else "")
PY
get() { python3 "$T_DIR/get.py" "$T_DIR/$1.json" "$2" "$3"; }
nv_words='Tensor[ -]core|tensor[ -]core|\bwarps?\b|\bSMs?\b|per SM|\bblocks?\b'
# has TEXT PATTERN; amd_only TEXT PATTERN: PATTERN in it and no NVIDIA word
has() { printf '%s\n' "$1" > "$T_DIR/s"; grep -q -- "$2" "$T_DIR/s"; }
amd_only() { has "$1" "$2" && ! grep -qE "$nv_words" "$T_DIR/s"; }

t=$(get misaligned_amd title misaligned_dims)
check "AMD misaligned-dims title: matrix cores (MFMA) ($t)" \
    test "$t" = "Dims that keep GEMMs off the matrix cores (MFMA)"
t=$(get misaligned_nv title misaligned_dims)
check "NVIDIA misaligned-dims title keeps tensor cores ($t)" \
    test "$t" = "Dims that keep GEMMs off tensor cores"
t=$(get misaligned_amd change misaligned_dims)
check "AMD misaligned what-if: matrix cores, no NVIDIA word ($t)" \
    amd_only "$t" 'without the matrix cores (MFMA)'
t=$(get misaligned_nv change misaligned_dims)
check "NVIDIA misaligned what-if keeps tensor cores ($t)" \
    has "$t" 'without tensor cores'
t=$(get occupancy_amd change low_occupancy)
check "AMD low-occupancy what-if: workgroups per CU ($t)" \
    amd_only "$t" 'workgroups per CU'
t=$(get occupancy_nv change low_occupancy)
check "NVIDIA low-occupancy what-if keeps blocks per SM ($t)" \
    has "$t" 'blocks per SM'
check "AMD occupancy KPI: wavefronts resident" \
    sh -c "grep -q 'wavefronts resident / maximum' '$T_DIR/occupancy_amd.html' && ! grep -q 'warps resident' '$T_DIR/occupancy_amd.html'"
check "NVIDIA occupancy KPI: warps resident" \
    grep -q 'warps resident / maximum' "$T_DIR/occupancy_nv.html"
t=$(get gpu_only_amd diag kernels_without_operator)
check "AMD GPU-only capture: matrix cores (MFMA) cover no kernel ($t)" \
    amd_only "$t" 'matrix cores (MFMA) and the roofline cover no kernel'
t=$(get gpu_only_nv diag kernels_without_operator)
check "NVIDIA GPU-only capture keeps tensor cores ($t)" \
    has "$t" 'tensor cores and the roofline cover no kernel'

# get_rec FILE ID: a recommendation's text
get_rec() {
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
t = [x['text'] for x in r['recommendations'] if x['id'] == sys.argv[2]]
print(t[0] if t else '')" "$T_DIR/$1.json" "$2"
}
amp_ok() {
    amd_only "$1" 'run in fp32 off the matrix cores (MFMA)' &&
        has "$1" 'torch.autocast("cuda", dtype=torch.bfloat16)' &&
        ! grep -qE 'compute capability|cudnn|allow_tf32' "$T_DIR/s"
}
t=$(get_rec amp_amd enable_amp)
check "AMD AMP advice: off the matrix cores, bf16 autocast, no CUDA capability or cuDNN TF32 ($t)" \
    amp_ok "$t"
t=$(get_rec amp_nv enable_amp)
check "NVIDIA AMP advice keeps compute capability 8.x and TF32 ($t)" \
    has "$t" 'On this GPU (compute capability 8.x) first allow TF32'

echo "1..$T_N"
