#!/bin/sh
# typed_objects.sh - issue #34: the distributed and job single objects (a
# run's hccl, npu_memory, op_compile and communication; distributed and its
# pipeline; the job and its step_us, slowest, median and heatmap) are typed
# rows (rows.def), written through the one writer in schema.def's row order
# and read back by the loader (pr_rows_read_one), which refuses a damaged
# value with its path (exit 2).  ../shared's torch_npu text_level1 (an
# HCCL table, NPU memory, online compilation, a job of ranks), MindSpore's
# 4-rank pipeline cluster and HTA's two-rank filter job give them.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "typed single objects" "no python3"
    echo "1..$T_N"
    exit 0
fi

# rows FILE [--subset] PATH...: each object at PATH is there, its keys in
# schema order (tests/cli/lib/typed_rows.py)
rows() { python3 "$PR_SRCDIR/tests/cli/lib/typed_rows.py" "$PR_SRCDIR" "$@"; }
# refused FILE PATH KEY VALUE: the loader refuses FILE with the first
# object at PATH (runs[] and arrays: their first element) having KEY set to
# the JSON VALUE, naming the object's path and the key
refused() {
    python3 - "$1" "$T_DIR/bad.json" "$2" "$3" "$4" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
v = s
for part in sys.argv[3].split("."):
    v = v[part.rstrip("[]")]
    if part.endswith("[]"):
        v = v[0]
v[sys.argv[4]] = json.loads(sys.argv[5])
json.dump(s, open(sys.argv[2], "w"))
PY
    "$PR_BIN" diff -q -b "$T_DIR/bad.json" -i "$1" > /dev/null 2> "$T_DIR/err"
    rc=$?
    want=$(echo "$2" | sed 's/\[\]/[0]/g').$3
    [ $rc -eq 2 ] && grep -qF "$want" "$T_DIR/err"
}
# loads FILE: the saved summary, undamaged, loads as a diff's baseline
loads() { "$PR_BIN" diff -q -b "$1" -i "$1" > /dev/null 2>&1; }

if shared_summary npu torch_npu/text_level1; then
    check "torch_npu text_level1: the saved summary loads" loads "$T_DIR/npu.json"
    for p in "runs[].hccl" "runs[].npu_memory" "runs[].op_compile"; do
        check "  $p: keys in schema order" rows "$T_DIR/npu.json" "$p"
    done
    check "  hccl's rows left out as text are refused" \
        refused "$T_DIR/npu.json" "runs[].hccl" rows_left_out '"x"'
    check "  hccl's ops as an object are refused" \
        refused "$T_DIR/npu.json" "runs[].hccl" ops '{}'
    check "  npu_memory's source as a number is refused" \
        refused "$T_DIR/npu.json" "runs[].npu_memory" source 1
    check "  op_compile's calls as 1.5 are refused" \
        refused "$T_DIR/npu.json" "runs[].op_compile" calls 1.5
    check "  op_compile's total time as null is refused" \
        refused "$T_DIR/npu.json" "runs[].op_compile" total_us null
else
    skip "torch_npu text_level1's single objects" "no ../shared"
fi
echo "1..$T_N"
