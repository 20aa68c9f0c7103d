#!/bin/sh
# diff_steps.sh - diff on small hand-made Kineto traces (issues #29 and
# #32): steps pair by their ProfilerStep number, so a warm-up step one run
# has and the other lacks is no regression; two traces with the same steps
# diff to 0; a run without step markers against a per-step run, and a GPU
# run against a CPU-only one, are warned about and mark the verdict; the
# operators and kernels added and deleted between the runs are listed.
. "$PR_SRCDIR/tests/lib.sh"

. "$PR_SRCDIR/tests/data/diff/kineto.sh"

B=$T_DIR/base.pt.trace.json
gen "$B" "1 2 3 4 5 6" aten::mm ampere_sgemm_128x64_nn

# --- steps paired by number
gen "$T_DIR/warm.pt.trace.json" "0 1 2 3 4 5 6" aten::mm \
    ampere_sgemm_128x64_nn 0
"$PR_BIN" diff "$B" "$T_DIR/warm.pt.trace.json" --json "$T_DIR/w.json" \
    > /dev/null 2> "$T_DIR/w.err"
check "a slow warm-up step #0 the baseline lacks is no regression" [ $? -eq 0 ]
check "  steps paired by ProfilerStep number" \
    grep -q '"paired_by":[[:space:]]*"ProfilerStep number"' "$T_DIR/w.json"
check "  6 pairs" grep -q '"paired":[[:space:]]*6' "$T_DIR/w.json"
check "  the step mean does not move" \
    grep -q 'step.mean \[.*\] 0.0%' "$T_DIR/w.err"
check "  a note says which steps were compared" \
    grep -q '6 have a number both runs have' "$T_DIR/w.json"
check "  and the verdict is not marked for it" \
    grep -q '"comparable":[[:space:]]*true' "$T_DIR/w.json"

# the same warm-up renumbered (no number in common): every step compared
gen "$T_DIR/other.pt.trace.json" "10 11 12 13 14 15 16" aten::mm \
    ampere_sgemm_128x64_nn 10
"$PR_BIN" diff -q "$B" "$T_DIR/other.pt.trace.json" --json "$T_DIR/o.json" \
    > /dev/null 2>&1
check "no step number in common: not paired by number" \
    grep -q '"paired_by":[[:space:]]*null' "$T_DIR/o.json"
check "  all 7 steps compared, the slow one too" \
    grep -q '"n_current":[[:space:]]*7' "$T_DIR/o.json"

# --- identical steps in two files diff to nothing
gen "$T_DIR/same.pt.trace.json" "1 2 3 4 5 6" aten::mm ampere_sgemm_128x64_nn
"$PR_BIN" diff "$B" "$T_DIR/same.pt.trace.json" --json "$T_DIR/s.json" \
    --markdown "$T_DIR/s.md" > /dev/null 2> "$T_DIR/s.err"
check "two traces with the same ProfilerSteps: exit 0" [ $? -eq 0 ]
check "  step time 0.0%" grep -q 'step.mean \[.*\] 0.0%' "$T_DIR/s.err"
check "  the kernel's time per step unchanged" \
    grep -q '"delta_us":[[:space:]]*0,' "$T_DIR/s.json"
check "  at 400 us a step" grep -q '"current_us":[[:space:]]*400,' \
    "$T_DIR/s.json"
check "  nothing added or deleted" \
    sh -c "! grep -q '\"added\":[[:space:]]*\[[[:space:]]*{' '$T_DIR/s.json'"

# --- no step markers against ProfilerSteps
gen "$T_DIR/nosteps.pt.trace.json" "- - - - - -" aten::mm \
    ampere_sgemm_128x64_nn
"$PR_BIN" diff "$B" "$T_DIR/nosteps.pt.trace.json" --json "$T_DIR/n.json" \
    --markdown "$T_DIR/n.md" > /dev/null 2> "$T_DIR/n.err"
check "no step markers against ProfilerSteps: inconclusive (exit 4)" \
    [ $? -eq 4 ]
check "  a warning on stderr names the mismatch" \
    grep -q 'warning: .*no step markers' "$T_DIR/n.err"
check "  the step gate is skipped as not comparable" \
    grep -q '"skip_reason":[[:space:]]*"not_comparable"' "$T_DIR/n.json"
check "  operator rows are not comparable either" \
    grep -q '"not_comparable":[[:space:]]*"run .*no step markers' \
    "$T_DIR/n.json"
check "  the Markdown headline marks the verdict" \
    grep -q '^## profreport diff: INCONCLUSIVE .*may not be comparable' \
    "$T_DIR/n.md"
"$PR_BIN" diff -q "$B" "$T_DIR/nosteps.pt.trace.json" \
    --fail-on 'op:aten::mm>+10%' > /dev/null 2>&1
check "  an operator rule skips too: still inconclusive" [ $? -eq 4 ]

# --- a GPU run against a CPU-only run
gen "$T_DIR/cpu.pt.trace.json" "1 2 3 4 5 6" aten::mm - none cpu
"$PR_BIN" diff "$B" "$T_DIR/cpu.pt.trace.json" --json "$T_DIR/c.json" \
    --markdown "$T_DIR/c.md" > /dev/null 2> "$T_DIR/c.err"
# their steps measure different windows (step_summary.basis device and
# host; review 18 #1): the step gate is skipped
check "GPU against CPU-only: steps on two bases, inconclusive (exit 4)" \
    [ $? -eq 4 ]
check "  the reason leads with the device that vanished (review 19 #6)" \
    grep -q "the current run is CPU-only; the baseline ran on .*: its step and per-window figures are not compared (check the job's device)" \
    "$T_DIR/c.err"
check "  a warning names the device run" \
    grep -q 'warning: .*baseline run recorded device work (NVIDIA A100-SXM4-80GB)' \
    "$T_DIR/c.err"
check "  the verdict is marked" \
    grep -q '"comparable":[[:space:]]*false' "$T_DIR/c.json"
check "  the headline says so" \
    grep -q '^## profreport diff: INCONCLUSIVE (.*may not be comparable: 2 warnings)' \
    "$T_DIR/c.md"

# --- added and deleted operators and kernels, as HTA's compare_traces
gen "$T_DIR/new.pt.trace.json" "1 2 3 4 5 6" aten::bmm \
    ampere_sgemm_64x64_tn
"$PR_BIN" diff "$B" "$T_DIR/new.pt.trace.json" --json "$T_DIR/a.json" \
    --markdown "$T_DIR/a.md" > /dev/null 2> "$T_DIR/a.err"
check "a different program: compared (exit 0)" [ $? -eq 0 ]
if command -v python3 > /dev/null 2>&1; then
    python3 - "$T_DIR/a.json" > "$T_DIR/a.txt" << 'EOF'
import json, sys
d = json.load(open(sys.argv[1]))["added_deleted"]
for k in ("operators", "kernels"):
    for side in ("added", "deleted"):
        print(k, side, ",".join(r["name"] for r in d[k][side]))
    print(k, "in_both", d[k]["in_both"])
EOF
    check "  operators added: aten::bmm" grep -qx 'operators added aten::bmm' \
        "$T_DIR/a.txt"
    check "  operators deleted: aten::mm" \
        grep -qx 'operators deleted aten::mm' "$T_DIR/a.txt"
    check "  kernels added: the new GEMM" \
        grep -qx 'kernels added ampere_sgemm_64x64_tn' "$T_DIR/a.txt"
    check "  kernels deleted: the old GEMM" \
        grep -qx 'kernels deleted ampere_sgemm_128x64_nn' "$T_DIR/a.txt"
    check "  no kernel in both" grep -qx 'kernels in_both 0' "$T_DIR/a.txt"
else
    skip "added/deleted lists" "python3 not found"
fi
check "  a warning: the runs barely overlap" \
    grep -q 'warning: the runs barely overlap: 0 of 2 kernels' "$T_DIR/a.err"
check "  the Markdown lists the added kernel" \
    grep -q 'ampere_sgemm_64x64_tn' "$T_DIR/a.md"

# review 27's brief: per-step tables show each row's calls per step on
# both sides (last, so an 80-column terminal leaves them out first)
KERNEL_US=800 gen "$T_DIR/slowk.pt.trace.json" "1 2 3 4 5 6" aten::mm \
    ampere_sgemm_128x64_nn
COLUMNS=200 "$PR_BIN" diff "$B" "$T_DIR/slowk.pt.trace.json" \
    > "$T_DIR/c.txt" 2> /dev/null
check "operators table: calls per step, baseline -> current, last" \
    sh -c "grep -q '^Name .* Change % *Calls per step\$' '$T_DIR/c.txt' &&
           grep -Eq '^aten::mm .* \+100\.0% +1 -> 1\$' '$T_DIR/c.txt'"
H=$PR_SHARED/traces/hta/trace_diff
if [ -f "$H/control/control.json.gz" ] && [ -f "$H/test/test.json.gz" ]; then
    COLUMNS=200 "$PR_BIN" diff "$H/control/control.json.gz" \
        "$H/test/test.json.gz" > "$T_DIR/h.txt" 2> /dev/null
    check "trace_diff: aten::copy_ +182.1% a step is 74 -> 872 calls a step" \
        grep -Eq '^aten::copy_ .* \+182\.1% +74 -> 872$' "$T_DIR/h.txt"
    COLUMNS=80 "$PR_BIN" diff "$H/control/control.json.gz" \
        "$H/test/test.json.gz" > "$T_DIR/h80.txt" 2> /dev/null
    check "  at 80 columns the calls go first, Change % stays" \
        sh -c "grep -Eq '^aten::copy_ .* \+182\.1%\$' '$T_DIR/h80.txt' &&
               grep -q '(1 more column: calls;' '$T_DIR/h80.txt'"
else
    skip "trace_diff calls per step" "no $H"
fi

echo "1..$T_N"
