#!/bin/sh
# diff_capture.sh - review 22g on small hand-made Kineto traces.
# #7: a change is coloured by whether it is better or worse, not by its
# sign (GPU utilization falling is worse).
. "$PR_SRCDIR/tests/lib.sh"

. "$PR_SRCDIR/tests/data/diff/kineto.sh"

K=ampere_sgemm_128x64_nn

# --- steps keep their per-step comparison
gen "$T_DIR/st.pt.trace.json" "1 2 3 4 5 6" aten::mm "$K"
KERNEL_US=300 gen "$T_DIR/st2.pt.trace.json" "1 2 3 4 5 6" aten::mm "$K"
"$PR_BIN" diff -q "$T_DIR/st.pt.trace.json" "$T_DIR/st2.pt.trace.json" \
    --json "$T_DIR/p.json" --html "$T_DIR/p.html" > /dev/null 2>&1
check "runs with steps: gated on the step (exit 0), per step" \
    sh -c "[ $? -eq 0 ] && ! grep -q '\"per\":' '$T_DIR/p.json' && grep -q 'Step time per step' '$T_DIR/p.html'"

# --- #7: GPU utilization falls (400 -> 300 us busy a 1 ms step): worse
check "a fall of GPU utilization is painted worse (red), not better" \
    sh -c "grep -o 'gpu.utilization GPU 0.\\{0,600\\}' '$T_DIR/p.html' | grep -q 'class=\"num up\"[^>]*>-[0-9.]* pp'"
check "  a fall of kernel time is painted better (green)" \
    sh -c "grep -o 'breakdown.kernel.\\{0,600\\}' '$T_DIR/p.html' | grep -q 'class=\"num down\"[^>]*>-100 µs'"

echo "1..$T_N"
