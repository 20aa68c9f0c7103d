#!/bin/sh
# shorten_legend.sh - review23g #6: a table whose names the shortener had
# to number (" [2]": different names that still read alike in the room)
# explains "[n]" once under it; a table without one says nothing of it.
. "$PR_SRCDIR/tests/lib.sh"

# four find_long_segments kernels (unweighted and weighted, each with two
# parameter lists): in 40 code points two of them read alike
N1=$(sed -n 33p "$PR_SRCDIR/tests/render/kernel_names.txt")
N2=$(sed -n 34p "$PR_SRCDIR/tests/render/kernel_names.txt")
N3=$(sed -n 35p "$PR_SRCDIR/tests/render/kernel_names.txt")
N4=$(sed -n 36p "$PR_SRCDIR/tests/render/kernel_names.txt")
trace() { # FILE US1 US2: four steps, one call of each kernel a step (US2 for 2-4)
    {
        printf '{"schemaVersion":1,"deviceProperties":[{"id":0,"name":"NVIDIA A100-SXM4-80GB","totalGlobalMem":85097971712,"computeMajor":8,"computeMinor":0,"numSms":108}],"traceEvents":['
        ts=1000000
        c=1
        for n in 1 2 3 4; do
            printf '{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%s","pid":1,"tid":1,"ts":%s,"dur":1000},' "$n" "$ts"
            for k in 1 2 3 4; do
                eval "name=\$N$k"
                d=$3
                [ $k = 1 ] && d=$2
                printf '{"ph":"X","cat":"cpu_op","name":"op%s","pid":1,"tid":1,"ts":%s,"dur":50,"args":{"External id":%s}},' "$k" $((ts + 10)) "$c"
                printf '{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%s,"dur":10,"args":{"correlation":%s,"External id":%s}},' $((ts + 20)) "$c" "$c"
                printf '{"ph":"X","cat":"kernel","name":"%s","pid":0,"tid":7,"ts":%s,"dur":%s,"args":{"correlation":%s,"device":0,"stream":7,"External id":%s}},' "$name" $((ts + 100)) "$d" "$c" "$c"
                ts=$((ts + 200))
                c=$((c + 1))
            done
            ts=$((ts + 200))
        done
        printf '{"ph":"X","cat":"cpu_op","name":"aten::end","pid":1,"tid":1,"ts":%s,"dur":1}]}\n' "$ts"
    } > "$1"
}
trace "$T_DIR/a.pt.trace.json" 100 100
trace "$T_DIR/b.pt.trace.json" 200 250
COLUMNS=70 "$PR_BIN" diff "$T_DIR/a.pt.trace.json" "$T_DIR/b.pt.trace.json" \
    > "$T_DIR/n.txt" 2> /dev/null
sed -n '/^Top regressions: kernels/,/^$/p' "$T_DIR/n.txt" > "$T_DIR/k.txt"
check "two find_long_segments kernels in 70 columns: one is numbered" \
    grep -q ' \[2\] ' "$T_DIR/k.txt"
check "  the table says once what [n] is" \
    sh -c "[ \$(grep -c '^\\[n\\]: the n-th name of that short form; --json has the full names' '$T_DIR/k.txt') -eq 1 ]"
"$PR_BIN" diff "$T_DIR/a.pt.trace.json" "$T_DIR/b.pt.trace.json" \
    --markdown "$T_DIR/n.md" > /dev/null 2>&1
check "the Markdown's kernel table (80 code points) explains its [2] once" \
    sh -c "grep -q '… \[2\]\`' '$T_DIR/n.md' && [ \$(grep -c '^\[n\]: the n-th name' '$T_DIR/n.md') -eq 1 ]"
COLUMNS=200 "$PR_BIN" diff "$T_DIR/a.pt.trace.json" \
    "$T_DIR/b.pt.trace.json" > "$T_DIR/w.txt" 2> /dev/null
check "in 200 columns nothing is numbered, and no legend" \
    sh -c "! grep -q '\\[2\\]\\|^\\[n\\]' '$T_DIR/w.txt'"

echo "1..$T_N"
