#!/bin/sh
# trend_comparable.sh - review 30g #4: `trend` keeps the diff's
# comparability warnings with each night's gates.  A night whose GPU model
# changed is marked "NOT COMPARABLE (devices differ)" in the Gates cell and
# the verdict line, and its JSON night carries gates_warnings; nights on
# one model carry none.  Hand-made: three nights of 3 ProfilerSteps, a
# 400 us kernel a step, the second night on another GPU with 600 us.
. "$PR_SRCDIR/tests/lib.sh"

# night FILE GPU DUR: 3 steps of one launch of a DUR us kernel on GPU
night() {
    {
        printf '{"schemaVersion":1,"deviceProperties":[{"id":0,"name":"%s","totalGlobalMem":85097971712,"computeMajor":8,"computeMinor":0,"numSms":108}],"traceEvents":[' "$2"
        sep=
        for s in 1 2 3; do
            ts=$((s * 10000))
            printf '%s{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%s","pid":1,"tid":1,"ts":%s,"dur":9000}' "$sep" "$s" "$ts"
            sep=,
            printf ',{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":%s,"dur":100,"args":{"External id":%s}}' $((ts + 10)) "$s"
            printf ',{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%s,"dur":10,"args":{"correlation":%s,"External id":%s}}' $((ts + 20)) "$s" "$s"
            printf ',{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":%s,"dur":%s,"args":{"correlation":%s,"device":0,"stream":7,"External id":%s}}' $((ts + 40)) "$3" "$s" "$s"
        done
        printf ']}\n'
    } > "$1"
}

night "$T_DIR/a.pt.trace.json" "NVIDIA A100-SXM4-80GB" 400
night "$T_DIR/b.pt.trace.json" "NVIDIA H100 80GB HBM3" 600
night "$T_DIR/c.pt.trace.json" "NVIDIA H100 80GB HBM3" 600
for n in a b c; do
    "$PR_BIN" -q --input "$T_DIR/$n.pt.trace.json" --json "$T_DIR/$n.json" \
        2> "$T_DIR/err" || sed 's/^/# /' "$T_DIR/err"
done
"$PR_BIN" trend --input "$T_DIR/a.json" "$T_DIR/b.json" "$T_DIR/c.json" \
    > "$T_DIR/t.txt" 2> "$T_DIR/err"
"$PR_BIN" trend --input "$T_DIR/a.json" "$T_DIR/b.json" "$T_DIR/c.json" \
    --json "$T_DIR/t.json" > /dev/null 2> "$T_DIR/err"

check "the night after the GPU change: NOT COMPARABLE in its Gates cell" \
    grep -q "NOT COMPARABLE (devices differ)" "$T_DIR/t.txt"
if command -v python3 > /dev/null 2>&1; then
    check "JSON: night 2 carries the diff's warning, nights 1 and 3 none" \
        test "$(python3 -c "
import json, sys
n = json.load(open(sys.argv[1]))['nights']
print([len(x.get('gates_warnings', [])) for x in n],
      'devices differ' in n[1]['gates_warnings'][0])" "$T_DIR/t.json")" = "[0, 1, 0] True"
else
    skip "trend JSON" "python3 is needed"
fi
"$PR_BIN" trend --input "$T_DIR/a.json" "$T_DIR/b.json" > "$T_DIR/t2.txt" 2>&1
check "the verdict line says the last night is not comparable" \
    grep -q "^profreport trend: .*not comparable with the night before (devices differ)" "$T_DIR/t2.txt"
check "nights on one GPU model: no NOT COMPARABLE mark" \
    sh -c "\"$PR_BIN\" trend --input \"$T_DIR/b.json\" \"$T_DIR/c.json\" 2>&1 | grep -q 'NOT COMPARABLE' && exit 1 || exit 0"
echo "1..$T_N"
