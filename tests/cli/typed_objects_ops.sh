#!/bin/sh
# typed_objects_ops.sh - issue #34: the single objects of the operator,
# kernel, efficiency and memory families are typed rows (rows.def): a
# run's attribution, module, layer and source views, roofline, a
# device's peak_tflops, kernel
# classes (with unknown, conv_gemm, layout_transforms), block_dim,
# tensor_cores, memory, a memory device's curve and a GPU's utilization
# series, and a raw memory timeline's summary, are written from their
# structs in schema.def's row order, and the
# loader (pr_rows_check, through pr_rows_read_one) refuses a saved summary
# whose value is damaged, naming its path.  On the TensorBoard plugin's
# resnet50 (a GPU: every object but block_dim) and torch_npu's
# text_level1 (an NPU: block_dim, the matmul dtype share, a kernel's PMU
# counters, a MAP read member by member against its row); HTA's raw
# memory timeline.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "typed single objects" "no python3"
    echo "1..$T_N"
    exit 0
fi

# rows FILE [--subset] PATH...: each object at PATH has its keys in schema
# order; refused FILE PATH KEY [VALUE]: the loader refuses FILE with KEY of
# the object at PATH (the first where an array leads to it) set to VALUE
# (JSON, a string by default), exit 2, naming the object and key
. "$PR_SRCDIR/tests/cli/lib/typed.sh"

if shared_summary tb tb_plugin/resnet50_num_workers_0; then
    "$PR_BIN" diff -q -b "$T_DIR/tb.json" -i "$T_DIR/tb.json" > /dev/null 2>&1
    rc=$?
    check "TensorBoard resnet50: its summary loads as a baseline (exit $rc)" \
        [ "$rc" -eq 0 ]
    for p in "runs[].attribution" "runs[].module_view" "runs[].layer_view" \
        "runs[].source_view" "runs[].roofline"; do
        check "  $p, keys in schema order" rows "$T_DIR/tb.json" "$p"
    done
    check "  the attribution's kernel count as text is refused" \
        refused "$T_DIR/tb.json" "runs[].attribution" kernels
    check "  the module view's module count as text is refused" \
        refused "$T_DIR/tb.json" "runs[].module_view" modules
    check "  the layer view's backward time as text is refused" \
        refused "$T_DIR/tb.json" "runs[].layer_view" backward_device_us
    check "  the source view's operator count as text is refused" \
        refused "$T_DIR/tb.json" "runs[].source_view" operators
    check "  the roofline's memory bandwidth as text is refused" \
        refused "$T_DIR/tb.json" "runs[].roofline" peak_gbps
    for p in "runs[].kernel_classes" "runs[].kernel_classes.unknown" \
        "runs[].kernel_classes.conv_gemm" \
        "runs[].kernel_classes.layout_transforms"; do
        check "  $p, keys in schema order" rows "$T_DIR/tb.json" "$p"
    done
    check "  runs[].devices[].peak_tflops, keys in schema order" \
        rows "$T_DIR/tb.json" "runs[].devices[].peak_tflops"
    check "  a device's FP16 tensor peak as text is refused" \
        refused "$T_DIR/tb.json" "runs[].devices[].peak_tflops" fp16_tensor
    check "  a device's FP8 tensor peak (a number on Hopper) is read" \
        python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
s['runs'][0]['devices'][0]['peak_tflops']['fp8_tensor'] = 1978.9
json.dump(s, open(sys.argv[2], 'w'))
" "$T_DIR/tb.json" "$T_DIR/fp8.json"
    check "  (the summary with it loads)" sh -c \
        '"$1" diff -q -b "$2" -i "$3" > /dev/null 2>&1' sh "$PR_BIN" \
        "$T_DIR/fp8.json" "$T_DIR/tb.json"
    check "  the unknown kernels' count as text is refused" \
        refused "$T_DIR/tb.json" "runs[].kernel_classes.unknown" kernels
    check "  the unknown kernels as text are refused" \
        refused "$T_DIR/tb.json" "runs[].kernel_classes" unknown
    check "  conv_gemm as a number is refused" \
        refused "$T_DIR/tb.json" "runs[].kernel_classes" conv_gemm 5
    check "  conv_gemm's time as text is refused" \
        refused "$T_DIR/tb.json" "runs[].kernel_classes.conv_gemm" total_us
    check "  the layout transforms' convolution time as text is refused" \
        refused "$T_DIR/tb.json" "runs[].kernel_classes.layout_transforms" \
        conv_us
    check "  tensor_cores, keys in schema order (no note, no NPU dtype)" \
        rows "$T_DIR/tb.json" --subset "runs[].tensor_cores"
    check "  a GPU's tensor_cores leave out the NPU's matmul dtype share" \
        python3 -c "
import json, sys
tc = json.load(open(sys.argv[1]))['runs'][0]['tensor_cores']
assert 'matmul_dtype_unknown_pct' not in tc and 'findings_omitted' in tc, tc
" "$T_DIR/tb.json"
    check "  the eligible ops' tensor-core share as text is refused" \
        refused "$T_DIR/tb.json" "runs[].tensor_cores" eligible_on_tc_pct
    for p in "runs[].memory" "runs[].memory.devices[].curve" \
        "runs[].gpu_metrics[].utilization_series"; do
        check "  $p, keys in schema order" rows "$T_DIR/tb.json" "$p"
    done
    check "  the memory's unknown-device records as text are refused" \
        refused "$T_DIR/tb.json" "runs[].memory" unknown_device_records
    check "  a memory curve's times as text are refused" \
        refused "$T_DIR/tb.json" "runs[].memory.devices[].curve" t_us
    check "  a utilization series' bucket as text is refused" \
        refused "$T_DIR/tb.json" "runs[].gpu_metrics[].utilization_series" \
        bucket_us
else
    skip "resnet50's single objects" "no ../shared"
fi
if shared_summary npu torch_npu/text_level1; then
    check "torch_npu text_level1: block_dim, keys in schema order" \
        rows "$T_DIR/npu.json" "runs[].block_dim"
    check "  the block dim's low-block time as text is refused" \
        refused "$T_DIR/npu.json" "runs[].block_dim" low_us
    check "  its tensor_cores give the NPU's matmul dtype share" \
        python3 -c "
import json, sys
tc = json.load(open(sys.argv[1]))['runs'][0]['tensor_cores']
assert 'matmul_dtype_unknown_pct' in tc, tc
" "$T_DIR/npu.json"
    check "  the matmul dtype share as text is refused" \
        refused "$T_DIR/npu.json" "runs[].tensor_cores" matmul_dtype_unknown_pct
    # pmu_refused VALUE: the first kernel with PMU counters, its first
    # counter set to VALUE (JSON), is refused with the counter's path
    pmu_refused() {
        at=$(python3 - "$T_DIR/npu.json" "$T_DIR/bad.json" "$1" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
ks = s["runs"][0]["kernels"]
i = next(i for i, k in enumerate(ks) if k.get("pmu"))
key = next(iter(ks[i]["pmu"]))
ks[i]["pmu"][key] = json.loads(sys.argv[3])
json.dump(s, open(sys.argv[2], "w"))
print("runs[0].kernels[%d].pmu.%s" % (i, key))
PY
        ) || return 1
        "$PR_BIN" diff -q -b "$T_DIR/bad.json" -i "$T_DIR/npu.json" \
            > /dev/null 2> "$T_DIR/err"
        rc=$?
        [ $rc -eq 2 ] && grep -qF "$at: expected a number" "$T_DIR/err"
    }
    check "  a kernel's PMU counter as text is refused" pmu_refused '"x"'
    check "  a kernel's PMU counter as an object is refused" pmu_refused '{}'
else
    skip "text_level1's block dim and tensor cores" "no ../shared"
fi
if shared_summary memtl hta/memory_analysis/memory_timeline.raw.gz; then
    check "HTA's raw memory timeline: memory_timeline, keys in schema order" \
        rows "$T_DIR/memtl.json" "runs[].memory_timeline"
    check "  its peak as text is refused" \
        refused "$T_DIR/memtl.json" "runs[].memory_timeline" peak_bytes
    check "  its curve's times as a number are refused" \
        refused "$T_DIR/memtl.json" "runs[].memory_timeline" curve_t_us 5
else
    skip "the raw memory timeline" "no ../shared"
fi
echo "1..$T_N"
