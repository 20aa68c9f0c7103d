#!/bin/sh
# loader_skips.sh - files not read that are found while reading (issue
# #35), told like the folder's skips (many_skips.sh): trace-like members
# a reader refuses, foreign files inside a producer's folder, and the
# producer's own files that --verbose names as notes.  The first 10 of
# each reason are named, the rest counted in one line per reason, the
# same whether the files are read one at a time or several at once.
. "$PR_SRCDIR/tests/lib.sh"

IN=$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz
D=$PR_SRCDIR/tests/data

# 1. a folder of 1,000 trace-like files its reader refuses, and 25 JSON
# files that are no trace, beside one trace
R=$T_DIR/run
mkdir -p "$R"
cp "$IN" "$R/w0.pt.trace.json.gz"
i=1
while [ $i -le 25 ]; do
    printf '{"rank_id": %d}' $i > "$R/profiler_info_$i.json"
    i=$((i + 1))
done
python3 - "$R" <<'PY'
import sys
for i in range(1000):
    open("%s/x%04d.pt.trace.json" % (sys.argv[1], i), "w").write('{"traceEvents": 5}')
PY
for jobs in 1 2; do
    "$PR_BIN" --jobs $jobs --input "$R" --json "$T_DIR/o.json" 2> "$T_DIR/err"
    check "refused members, --jobs $jobs: exit 0 ($?)" [ -s "$T_DIR/o.json" ]
    n=$(grep -c "warning: skipping $R/x[0-9]*.pt.trace.json: not a profiler trace (traceEvents is a number" "$T_DIR/err")
    check "  the first 10 refused trace-like files named (got $n)" [ "$n" -eq 10 ]
    check "  the first named are the first in file order" \
        grep -q "skipping $R/x0000.pt.trace.json: " "$T_DIR/err"
    check "  the other 990 counted in one line" grep -q \
        "^profreport: warning: ... and 990 more skipped like this: not a profiler trace (traceEvents is a number, not an array)" \
        "$T_DIR/err"
    n=$(grep -c "warning: skipping $R/profiler_info_[0-9]*.json: not a profiler trace (no traceEvents)" "$T_DIR/err")
    check "  10 of the 25 other JSON files named (got $n)" [ "$n" -eq 10 ]
    check "  and 15 counted" grep -q \
        "^profreport: warning: ... and 15 more skipped like this: not a profiler trace (no traceEvents)" \
        "$T_DIR/err"
    lines=$(wc -l < "$T_DIR/err")
    check "  stderr holds 22 lines, not 1,025 ($lines)" [ "$lines" -eq 22 ]
done
"$PR_BIN" -q --input "$R" --json "$T_DIR/o.json" 2> "$T_DIR/err"
check "--quiet: not a line" [ ! -s "$T_DIR/err" ]

# 2. foreign files inside a producer's folder (MindSpore's): warned, 10
# named and the rest counted
M=$T_DIR/ms
cp -R "$D/mindspore/pp2" "$M"
chmod -R u+w "$M"
i=1
while [ $i -le 25 ]; do
    printf 'n\n' > "$M/notes$i.txt"
    i=$((i + 1))
done
"$PR_BIN" --input "$M" --json "$T_DIR/o.json" 2> "$T_DIR/err"
check "25 foreign files in a MindSpore folder: exit 0 ($?)" [ -s "$T_DIR/o.json" ]
n=$(grep -c "warning: skipping $M/notes[0-9]*.txt: not a file of MindSpore's profiler" "$T_DIR/err")
check "  10 named (got $n)" [ "$n" -eq 10 ]
check "  15 counted" grep -q \
    "^profreport: warning: ... and 15 more skipped like this: not a file of MindSpore's profiler" \
    "$T_DIR/err"

# 3. --verbose notes about the producer's own files, over 4 ranks: 16
# files, 10 named (rank by rank), 6 counted
A=$T_DIR/npu
cp -R "$D/ascend/pp4" "$A"
chmod -R u+w "$A"
for r in 0 1 2 3; do
    d=$A/rank${r}_ascend_pt
    printf 'Device_id,Component\n' > "$d/ASCEND_PROFILER_OUTPUT/npu_module_mem.csv"
    printf 'x\n' > "$d/ASCEND_PROFILER_OUTPUT/l2_cache.csv"
    printf '{}' > "$d/profiler_metadata.json"
    printf 'hi\n' > "$d/notes.txt"
done
"$PR_BIN" -v --input "$A" --json "$T_DIR/o.json" 2> "$T_DIR/err"
check "-v over 4 torch_npu ranks with 16 files not read: exit 0 ($?)" [ -s "$T_DIR/o.json" ]
n=$(grep -c "^profreport: note: rank[0-9]: not read: $A/" "$T_DIR/err")
check "  10 named as notes (got $n)" [ "$n" -eq 10 ]
check "  rank 0's first" grep -q "^profreport: note: rank0: not read: $A/rank0_ascend_pt/" "$T_DIR/err"
check "  6 counted" grep -q \
    "^profreport: note: ... and 6 more not read like this: a file of the Ascend export profreport does not read" \
    "$T_DIR/err"
"$PR_BIN" --input "$A" --json "$T_DIR/o.json" 2> "$T_DIR/err"
check "  without -v: no note" sh -c "! grep -q 'note:' '$T_DIR/err'"

echo "1..$T_N"
