#!/bin/sh
# vendor_words.sh - review 28h #12: an AMD GPU's report names its units in
# AMD's words (matrix cores (MFMA), vector ALUs, CUs, HIP graphs), an MTIA
# accelerator's in none of NVIDIA's (its trace names no unit: no tensor
# cores, CUDA cores, SMs or CUDA graphs), as an Ascend run's already does;
# an NVIDIA run keeps its words.  Hand-made traces: an MI250 GCD running
# a Tensile MFMA GEMM and a PyTorch elementwise kernel, an MTIA running
# two tasks, and the MI250 trace renamed an A100.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "vendor words" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" <<'PY'
import json, sys
d = sys.argv[1]
def gpu(path, props):
    ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
           "pid": 1, "tid": 1, "ts": 0, "dur": 400,
           "args": {"External id": 1000}},
          {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1,
           "tid": 1, "ts": 5, "dur": 20,
           "args": {"External id": 1, "Input Dims": [[256, 256], [256, 256]],
                    "Input type": ["c10::Half", "c10::Half"]}},
          {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1,
           "tid": 1, "ts": 30, "dur": 20, "args": {"External id": 2}}]
    ks = [("Cijk_Alik_Bljk_HHS_BH_MT64x64x32_MI16x16x16x1_SN_ISA90a", 100, 1),
          ("void at::native::vectorized_elementwise_kernel<4, at::native::"
           "CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, "
           "at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
           100, 2)]
    for i, (name, dur, ext) in enumerate(ks):
        corr = 100 + i
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel",
                   "pid": 1, "tid": 1, "ts": 10 + 25 * i, "dur": 2,
                   "args": {"correlation": corr, "External id": ext}})
        ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0,
                   "tid": 7, "ts": 100 + 150 * i, "dur": dur,
                   "args": {"device": 0, "stream": 7, "correlation": corr,
                            "External id": ext, "blocks per SM": 0.5,
                            "est. achieved occupancy %": 40}})
    json.dump({"schemaVersion": 1, "deviceProperties": props,
               "traceEvents": ev}, open(path, "w"))
gpu(d + "/amd.json", [{"id": 0, "name": "AMD Instinct MI250X",
                       "totalGlobalMem": 68702699520, "computeMajor": 9,
                       "computeMinor": 0, "warpSize": 64, "numSms": 110}])
gpu(d + "/nv.json", [{"id": 0, "name": "NVIDIA A100-SXM4-80GB",
                      "totalGlobalMem": 85899345920, "computeMajor": 8,
                      "computeMinor": 0, "warpSize": 32, "numSms": 108}])
ev = [{"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1,
       "tid": 1, "ts": 0, "dur": 50, "args": {"External id": 1}}]
for i, name in enumerate(["merge", "pe_exe"]):
    ev.append({"ph": "X", "cat": "mtia_runtime", "name": "gif_merge",
               "pid": 1, "tid": 1, "ts": 5 + 10 * i, "dur": 3,
               "args": {"correlation": 50 + i, "device": 17,
                        "External id": 1}})
    ev.append({"ph": "X", "cat": "mtia_ccp_events", "name": name, "pid": 17,
               "tid": 3774, "ts": 100 + 200 * i, "dur": 150,
               "args": {"stream": 108, "correlation": 50 + i,
                        "device": 17}})
json.dump({"schemaVersion": 1,
           "deviceProperties": [{"id": 17, "name": "ARTEMIS"}],
           "traceEvents": ev}, open(d + "/mtia.json", "w"))
PY

text() { # report -> its HTML's text and its PDF's
    python3 - "$1.html" > "$1.words" <<'PY'
import html, re, sys
t = open(sys.argv[1]).read()
t = re.sub(r"<script.*?</script>|<style.*?</style>", "", t, flags=re.S)
print(html.unescape(re.sub(r"<[^>]+>", "\n", t)))
PY
    if command -v pdftotext > /dev/null 2>&1; then
        pdftotext "$1.pdf" - >> "$1.words" 2> /dev/null
    fi
}
for t in amd mtia nv; do
    "$PR_BIN" -q --input "$T_DIR/$t.json" --html "$T_DIR/$t.html" \
        --pdf "$T_DIR/$t.pdf" --json "$T_DIR/$t.out.json" 2> "$T_DIR/err"
    check "$t: report written (exit $?; $(head -c 200 "$T_DIR/err"))" \
        [ -s "$T_DIR/$t.html" ]
    text "$T_DIR/$t"
    "$PR_BIN" table -q --kind kernels --input "$T_DIR/$t.json" -w 160 \
        > "$T_DIR/$t.kt" 2> "$T_DIR/err"
done
# NVIDIA's unit words, the kernel names aside (CUDAFunctor_add is one)
nv_words='Tensor[ -]core|tensor[ -]core|CUDA core|CUDA graph|CUDA-graph|\bSMs?\b|SM efficiency|\bTC\b|Blocks/SM'
check "AMD: no NVIDIA unit words in the HTML or PDF ($(grep -oE "$nv_words" "$T_DIR/amd.words" | sort -u | tr '\n' ' '))" \
    sh -c "! grep -qE '$nv_words' '$T_DIR/amd.words'"
check "AMD: the section is the matrix cores'" \
    grep -q "^Matrix cores (MFMA)$" "$T_DIR/amd.words"
check "AMD: the chart's legend and the KPI in its words" \
    sh -c "grep -q 'Vector ALUs' '$T_DIR/amd.html' && grep -q 'Kernel time on matrix cores (MFMA)' '$T_DIR/amd.words'"
check "AMD: CUs, Est. CU efficiency and the FP16 matrix peak" \
    sh -c "grep -q '^CUs$' '$T_DIR/amd.words' && grep -q 'Est. CU efficiency' '$T_DIR/amd.words' && grep -q 'FP16 matrix peak' '$T_DIR/amd.words'"
check "AMD: the kernel table's MFMA column" \
    sh -c "head -1 '$T_DIR/amd.kt' | grep -q ' MFMA ' && ! head -1 '$T_DIR/amd.kt' | grep -q ' TC '"
grep -nE "$nv_words" "$T_DIR/mtia.words" >&2; check "MTIA: no NVIDIA unit words in the HTML or PDF ($(grep -oE "$nv_words|GPU util|GPU metrics" "$T_DIR/mtia.words" | sort -u | tr '\n' ' '))" \
    sh -c "! grep -qE '$nv_words|GPU util|GPU metrics' '$T_DIR/mtia.words'"
check "MTIA: the section says the trace names no unit" \
    grep -q "does not say which tasks ran on the accelerator's matrix units" \
    "$T_DIR/mtia.words"
check "NVIDIA: its words stay (Tensor cores, TC column, SMs)" \
    sh -c "grep -q '^Tensor cores$' '$T_DIR/nv.words' && grep -q 'FP16 TC peak' '$T_DIR/nv.words' && head -1 '$T_DIR/nv.kt' | grep -q ' TC '"
check "the summary is the same but for the device (AMD vs NVIDIA tc share)" \
    python3 -c "import json,sys; a,b=(json.load(open(sys.argv[i]))['runs'][0]['tensor_cores']['tc_kernel_time_pct'] for i in (1,2)); sys.exit(0 if a==50 else 1)" \
    "$T_DIR/amd.out.json" "$T_DIR/nv.out.json"

echo "1..$T_N"
