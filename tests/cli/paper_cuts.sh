#!/bin/sh
# paper_cuts.sh - issue #32's paper cuts: an empty `table` says why it is
# empty and how to record what it lacks (in the text form only: CSV and
# JSON stay machine-clean); one unit grammar for --min-time and
# --max-input; a folder of saved summaries reads like its files given one
# by one.  Hand-made traces (tests/data/diff/kineto.sh).
. "$PR_SRCDIR/tests/lib.sh"
. "$PR_SRCDIR/tests/data/diff/kineto.sh"

gen "$T_DIR/cpu.pt.trace.json" "1 2 3" aten::mm - none cpu
gen "$T_DIR/gpu.pt.trace.json" "- - -" aten::mm ampere_sgemm_128x64_nn

"$PR_BIN" table -q -i "$T_DIR/cpu.pt.trace.json" --kind kernels \
    > "$T_DIR/k.txt" 2>&1
check "a CPU-only trace: --kind kernels exits 0" [ $? -eq 0 ]
check "  says why there are no rows and how to record them" \
    grep -q '^(no rows: the trace holds no device kernels.*ProfilerActivity.CUDA' \
    "$T_DIR/k.txt"
"$PR_BIN" table -q -i "$T_DIR/cpu.pt.trace.json" --kind kernels --csv \
    > "$T_DIR/k.csv" 2>&1
check "  the CSV stays a header alone" [ "$(wc -l < "$T_DIR/k.csv")" -eq 1 ]

"$PR_BIN" table -q -i "$T_DIR/gpu.pt.trace.json" --kind memory \
    > "$T_DIR/m.txt" 2>&1
check "no memory events: profile_memory=True named" \
    grep -q '^(no rows: .*profile_memory=True' "$T_DIR/m.txt"

"$PR_BIN" table -q -i "$T_DIR/gpu.pt.trace.json" --kind kernels \
    --filter no_such_kernel > "$T_DIR/f.txt" 2>&1
check "a filter that keeps nothing says so, not a recording hint" \
    grep -q '^(no rows: --filter/--min-time left out all 1)' "$T_DIR/f.txt"

"$PR_BIN" table -q -i "$T_DIR/gpu.pt.trace.json" --kind kernels \
    > "$T_DIR/g.txt" 2>&1
check "a table with rows has no such line" \
    sh -c "! grep -q 'no rows' '$T_DIR/g.txt'"

# one unit grammar (issue #32): --min-time takes a unit; the kernel is
# 400 us a call, 1.2 ms in all
"$PR_BIN" table -q -i "$T_DIR/gpu.pt.trace.json" --kind kernels \
    --min-time 1ms > "$T_DIR/u1.txt" 2>&1
check "--min-time 1ms keeps the 1.2 ms kernel" \
    grep -q '^ampere_sgemm_128x64_nn' "$T_DIR/u1.txt"
"$PR_BIN" table -q -i "$T_DIR/gpu.pt.trace.json" --kind kernels \
    --min-time 1.5ms > "$T_DIR/u2.txt" 2>&1
check "--min-time 1.5ms leaves it out" \
    grep -q '^(no rows: --filter/--min-time left out all 1)' "$T_DIR/u2.txt"
"$PR_BIN" table -q -i "$T_DIR/gpu.pt.trace.json" --kind kernels \
    --min-time 1500 > "$T_DIR/u3.txt" 2>&1
check "--min-time 1500 (bare: us) the same" cmp -s "$T_DIR/u2.txt" "$T_DIR/u3.txt"
"$PR_BIN" table -q -i "$T_DIR/gpu.pt.trace.json" --kind kernels \
    --min-time 5min > "$T_DIR/u4.txt" 2>&1
check "--min-time 5min is a usage error (exit 1)" [ $? -eq 1 ]
check "  naming the units" grep -q 'ns, us, ms, s' "$T_DIR/u4.txt"
"$PR_BIN" table -q -i "$T_DIR/gpu.pt.trace.json" --kind kernels \
    --max-input 100M > /dev/null 2>&1
check "--max-input 100M is accepted" [ $? -eq 0 ]
"$PR_BIN" table -q -i "$T_DIR/gpu.pt.trace.json" --kind kernels \
    --max-input 1K > "$T_DIR/u5.txt" 2>&1
check "--max-input 1K refuses the bigger trace (exit 2)" [ $? -eq 2 ]

# --- a folder of saved summaries
D=$PR_SRCDIR/tests/data/diff
mkdir -p "$T_DIR/nightly"
cp "$D/ranks_base.json" "$T_DIR/nightly/a.json"
cp "$D/ranks_cur.json" "$T_DIR/nightly/b.json"
"$PR_BIN" table -q -i "$T_DIR/nightly" --kind steps --csv > "$T_DIR/sd.csv" \
    2> "$T_DIR/sd.err"
check "table on a folder of summaries exits 0" [ $? -eq 0 ]
"$PR_BIN" table -q -i "$T_DIR/nightly/a.json" -i "$T_DIR/nightly/b.json" \
    --kind steps --csv > "$T_DIR/sf.csv" 2>&1
check "  the same rows as its files one by one" cmp -s "$T_DIR/sd.csv" \
    "$T_DIR/sf.csv"
check "  and some rows" [ "$(wc -l < "$T_DIR/sd.csv")" -gt 2 ]
mkdir -p "$T_DIR/tonight"
cp "$D/ranks_cur.json" "$T_DIR/tonight/b.json"
"$PR_BIN" diff -q "$D/ranks_base.json" "$T_DIR/tonight" \
    --json "$T_DIR/sd.json" > /dev/null 2>&1
rc=$?
check "diff against a folder of one summary: rank 1's slowdown (exit 3)" \
    [ "$rc" -eq 3 ]

# "nothing stood out" only where the checks could run (issue #32): a
# MegEngine timeline without kernels or steps says what it lacks instead
"$PR_BIN" -q -i "$PR_SRCDIR/tests/data/megengine/v1_6.chrome_timeline.json" \
    --html "$T_DIR/mge.html" --json "$T_DIR/mge.json"
check "no recommendation with checks that could not run: said so" sh -c \
    "grep -q 'some checks could not run: Data quality below' '$T_DIR/mge.html' && ! grep -q 'nothing stood out' '$T_DIR/mge.html'"
check "  (the run has no recommendation and a no_... diagnostic)" python3 -c "
import json
r = json.load(open('$T_DIR/mge.json'))['runs'][0]
assert not r['recommendations']
assert any(d['kind'].startswith('no_') for d in r['diagnostics'])
"

echo "1..$T_N"
