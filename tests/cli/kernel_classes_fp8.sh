#!/bin/sh
# kernel_classes_fp8.sh - issue #28 / review 28h #2, #3: kernel-table rules
# for 2025 kernels, end to end on two hand-made traces.
#  H800 (one rank): FP8 grouped GEMMs launched through CUTLASS 3's
#    cutlass::device_kernel<...GemmKernel> (300 us), FlashAttention 3's
#    2024 forward compute_attn_ws<Flash_fwd_kernel_traits...> (100 us,
#    FA3 not FA2 although its traits name says flash_fwd_kernel), its
#    backward FlashAttnBwd (100 us), an fp8 cast kernel no rule names
#    (100 us), a DeepEP combine (400 us): tensor cores 500 of 1000 us.
#  MI300X: a Tensile MFMA GEMM (200 us), its PostGSU split-U reduction
#    (100 us), vLLM's ROCm paged attention QKV MFMA kernel (100 us) and
#    its partition reduce (100 us): matrix cores 300 of 500 us = 60%.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "kernel classes (fp8, ROCm)" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" <<'PY'
import json, sys
d = sys.argv[1]
def trace(path, props, ks, dev=0):
    ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
           "pid": 1, "tid": 1, "ts": 0, "dur": 1100,
           "args": {"External id": 1000}}]
    ts = 50
    for i, (name, dur) in enumerate(ks):
        corr = 100 + i
        ev.append({"ph": "X", "cat": "cuda_runtime",
                   "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                   "ts": 10 + 5 * i, "dur": 2,
                   "args": {"correlation": corr, "External id": corr}})
        ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": dev,
                   "tid": 7, "ts": ts, "dur": dur,
                   "args": {"device": dev, "stream": 7, "correlation": corr,
                            "External id": corr}})
        ts += dur
    json.dump({"schemaVersion": 1, "deviceProperties": props,
               "traceEvents": ev}, open(path, "w"))
fa3 = ("void flash::compute_attn_ws<Flash_fwd_kernel_traits<192, 128, 128, "
       "12, 2, false, 1, cutlass::bfloat16_t, 128>, true, "
       "flash::SingleTileScheduler, flash::SeqLenTraits<true> >(flash::"
       "CollectiveMainloopFwd<Flash_fwd_kernel_traits<192, 128, 128, 12, 2, "
       "false, 1, cutlass::bfloat16_t, 128>, true, flash::SeqLenTraits<true> "
       ">::Params, flash::SingleTileScheduler::Params)")
trace(d + "/h800.json",
      [{"id": 0, "name": "NVIDIA H800", "computeMajor": 9, "computeMinor": 0,
        "warpSize": 32, "numSms": 132}],
      [("void cutlass::device_kernel<dpsk::grouped_gemm::cuda::"
        "m_grouped_fp8_ptp128c::GemmKernel>(dpsk::grouped_gemm::cuda::"
        "m_grouped_fp8_ptp128c::GemmKernel::Params)", 300),
       (fa3, 100),
       ("void cutlass::device_kernel<flash::FlashAttnBwd<flash::"
        "CollectiveMainloopBwd<2, cutlass::bfloat16_t, float, "
        "cutlass::arch::Sm90> > >(flash::FlashAttnBwd<flash::"
        "CollectiveMainloopBwd<2, cutlass::bfloat16_t, float, "
        "cutlass::arch::Sm90> >::Params)", 100),
       ("void cuda::per_token_cast_to_fp8_with_channels<__nv_bfloat16, 128>"
        "(__nv_bfloat16 const*, int, unsigned char*, float*, "
        "__nv_fp8_interpretation_t)", 100),
       ("void dpsk::ep::internode::combine<false, 8, __nv_bfloat16>(int4*, "
        "float*, bool const*)", 400)])
trace(d + "/mi300x.json",
      [{"id": 0, "name": "AMD Instinct MI300X", "computeMajor": 9,
        "computeMinor": 4, "warpSize": 64, "numSms": 304}],
      [("Cijk_Alik_Bljk_BBS_BH_Bias_HAS_SAV_UserArgs_MT192x16x128_MI16x16x1_"
        "SN_LDSB1_AFC1_GSU4_ISA942_IU1_K1", 200),
       ("Cijk_SB_BiasS_HAS_ScaleAlphaVec_PostGSU4_VW4", 100),
       ("void paged_attention_ll4mi_QKV_mfma16_kernel<__hip_bfloat16, "
        "__hip_bfloat16, (vllm::Fp8KVCacheDataType)0, __hip_bfloat16, 16, "
        "128, 256, false, 8>(__hip_bfloat16 const*)", 100),
       ("void paged_attention_ll4mi_reduce_kernel<__hip_bfloat16, "
        "__hip_bfloat16, 128, 128, 256, 1>(__hip_bfloat16*, float const*, "
        "float const*, __hip_bfloat16 const*, int const*, int const*, int, "
        "float const*)", 100)])
PY

for t in h800 mi300x; do
    "$PR_BIN" -q --input "$T_DIR/$t.json" --json "$T_DIR/$t.out.json" \
        2> "$T_DIR/err"
    check "$t: report written (exit $?; $(head -c 200 "$T_DIR/err"))" \
        [ -s "$T_DIR/$t.out.json" ]
done

python3 - "$T_DIR/h800.out.json" > "$T_DIR/why" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
bad = []
rows = {k["name"][:40]: k for k in r["kernels"]}
want = {"void cutlass::device_kernel<dpsk::groupe":
            ("gemm", "tensor_core", "fp8", "cutlass3.fp8_gemm"),
        "void flash::compute_attn_ws<Flash_fwd_k":
            ("attention", "tensor_core", "bf16", "flash_attn3"),
        "void cutlass::device_kernel<flash::Flash":
            ("attention", "tensor_core", "bf16", "flash_attn3"),
        "void cuda::per_token_cast_to_fp8_with_ch": (None, None, None, None),
        "void dpsk::ep::internode::combine<false,":
            ("collective", "cuda_core", None, "deepep.ns")}
for name, w in want.items():
    k = next((v for n, v in rows.items() if n.startswith(name[:32])), None)
    got = k and (k["family"], k["math"], k["precision"], k["kernel_rule"])
    if got != w:
        bad.append("%s: %s, want %s" % (name, got, w))
if r["tensor_cores"]["tc_kernel_time_pct"] != 50:
    bad.append("tc share %s" % r["tensor_cores"]["tc_kernel_time_pct"])
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
check "H800: FP8 grouped GEMM and FA3 on tensor cores, 50% ($(cat "$T_DIR/why"))" \
    [ $? -eq 0 ]

python3 - "$T_DIR/mi300x.out.json" > "$T_DIR/why" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
bad = []
rows = {k["name"][:40]: k for k in r["kernels"]}
want = {"Cijk_Alik_Bljk_BBS_BH_Bias_HAS_SAV_UserA":
            ("gemm", "mfma", "tensile.mfma"),
        "Cijk_SB_BiasS_HAS_ScaleAlphaVec_PostGSU4":
            ("reduction", "vector", "tensile.post_gsu"),
        "void paged_attention_ll4mi_QKV_mfma16_ke":
            ("attention", "mfma", "vllm_paged_attn.rocm"),
        "void paged_attention_ll4mi_reduce_kernel":
            ("attention", "vector", "vllm_paged_attn.rocm_reduce")}
for name, w in want.items():
    k = next((v for n, v in rows.items() if n.startswith(name[:32])), None)
    got = k and (k["family"], k["math"], k["kernel_rule"])
    if got != w:
        bad.append("%s: %s, want %s" % (name, got, w))
if r["tensor_cores"]["tc_kernel_time_pct"] != 60:
    bad.append("matrix-core share %s" % r["tensor_cores"]["tc_kernel_time_pct"])
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
check "MI300X: PostGSU and the paged-attention reduce off the matrix cores, 60% ($(cat "$T_DIR/why"))" \
    [ $? -eq 0 ]

# --why with the FA3 forward's full name: the rule and why FA2's does not win
"$PR_BIN" table --why "$(python3 -c "import json,sys; print([k['name'] for k in json.load(open(sys.argv[1]))['runs'][0]['kernels'] if 'compute_attn_ws' in k['name']][0])" "$T_DIR/h800.out.json")" \
    > "$T_DIR/why.txt" 2> "$T_DIR/err"
check "--why compute_attn_ws: rule flash_attn3" \
    grep -q "^rule  *flash_attn3 " "$T_DIR/why.txt"

# --why with --input takes what the kernel table prints (review 28h #13):
# its short form, a part of the name; several kernels: listed, exit 1
"$PR_BIN" table -q --kind kernels --input "$T_DIR/h800.json" -w 100 \
    > "$T_DIR/table.txt" 2> "$T_DIR/err"
short=$(sed -n 's/^\(device_kernel<FlashAttnBwd[^ ]*\)  .*/\1/p' "$T_DIR/table.txt")
check "the table prints FA3's backward short ($short)" [ -n "$short" ]
"$PR_BIN" table -q --input "$T_DIR/h800.json" --why "$short" \
    > "$T_DIR/why.txt" 2> "$T_DIR/err"
check "--why '$short' --input: exit 0 ($(head -c 200 "$T_DIR/err"))" [ $? -eq 0 ]
check "  the kernel's full name and rule flash_attn3" \
    sh -c "grep -q '^kernel  *void cutlass::device_kernel<flash::FlashAttnBwd<flash::CollectiveMainloopBwd<2,' '$T_DIR/why.txt' && grep -q '^rule  *flash_attn3 ' '$T_DIR/why.txt'"
"$PR_BIN" table -q --input "$T_DIR/h800.json" --why compute_attn_ws \
    > "$T_DIR/why.txt" 2> "$T_DIR/err"
check "--why compute_attn_ws --input: a part of one name (exit $?)" \
    grep -q "^rule  *flash_attn3 " "$T_DIR/why.txt"
"$PR_BIN" table -q --input "$T_DIR/h800.json" --why 'DEVICE_KERNEL<' \
    > "$T_DIR/why.txt" 2> "$T_DIR/err"
check "--why of a part of two names: exit 1 (got $?)" [ $? -eq 1 ]
check "  the message lists both" \
    sh -c "grep -q \"'DEVICE_KERNEL<' names 2 kernels\" '$T_DIR/err' && grep -q 'device_kernel<GemmKernel>' '$T_DIR/err' && grep -q 'FlashAttnBwd' '$T_DIR/err'"
check "  nothing on stdout" [ ! -s "$T_DIR/why.txt" ]

echo "1..$T_N"
