#!/bin/sh
# diff_capture.sh - review 22g #1, #7, #11 on small hand-made Kineto traces.
# #1: two runs without steps are each one capture, whose length is the
# profiler's window: no step figure is gated or shown as a speed, and the
# operators and kernels are compared per call, so fewer calls in a fixed
# window is no "improvement" and a kernel slower per call is a regression.
# #7: a change is coloured by whether it is better or worse, not by its
# sign (GPU utilization falling is worse).  #11: two kernels the terminal
# would print as "elementwise_kernel<…>" read apart.
. "$PR_SRCDIR/tests/lib.sh"

. "$PR_SRCDIR/tests/data/diff/kineto.sh"

K=ampere_sgemm_128x64_nn
# baseline: six 400 us kernels in a 6 ms capture; current: four in the
# same window (1.5 ms iterations), each as fast, or each 500 us (slower)
gen "$T_DIR/b.pt.trace.json" "- - - - - -" aten::mm "$K"
STEP_US=1500 gen "$T_DIR/fewer.pt.trace.json" "- - - -" aten::mm "$K"
STEP_US=1500 KERNEL_US=500 gen "$T_DIR/slower.pt.trace.json" "- - - -" \
    aten::mm "$K"

# --- #1: fewer calls in the same window
"$PR_BIN" diff "$T_DIR/b.pt.trace.json" "$T_DIR/fewer.pt.trace.json" \
    --json "$T_DIR/f.json" --markdown "$T_DIR/f.md" --html "$T_DIR/f.html" \
    > /dev/null 2> "$T_DIR/f.err"
check "two captures without steps: the step gate has nothing (exit 4)" \
    [ $? -eq 4 ]
check "  the gate says why: the capture is the profiler's window" \
    grep -q "skipped step.mean.*no steps: each run is one capture.*profiler's window, not a speed" \
    "$T_DIR/f.err"
check "  the kernel is compared per call" \
    grep -q '"per":[[:space:]]*"call"' "$T_DIR/f.json"
check "  400 us a call on both sides: no change" \
    sh -c "grep -q '\"baseline_us\":[[:space:]]*400,' '$T_DIR/f.json' && grep -q '\"current_us\":[[:space:]]*400,' '$T_DIR/f.json' && grep -q '\"delta_pct\":[[:space:]]*0,' '$T_DIR/f.json'"
check "  its time per capture kept beside it (2.4 ms -> 1.6 ms)" \
    sh -c "grep -q '\"baseline_total_us\":[[:space:]]*2400' '$T_DIR/f.json' && grep -q '\"current_total_us\":[[:space:]]*1600' '$T_DIR/f.json'"
check "  the step and breakdown rows are not compared" \
    grep -q '"not_comparable":[[:space:]]*"run .*no steps: each run is one capture' \
    "$T_DIR/f.json"
check "  no improvement listed: 6 -> 4 calls is no speed-up" \
    sh -c "sed -n '/^### Top improvements: kernels/,/^### New/p' '$T_DIR/f.md' | grep -q '^| (none) |'"
check "  headings say per call, no steps" \
    grep -q '^### Top regressions: kernels (mean device time per call; no steps)' \
    "$T_DIR/f.md"
check "  the sides read 'no steps', not 'steps: 1'" \
    grep -q '(runs: 1, no steps) vs current' "$T_DIR/f.md"
check "  no step.mean row among the figures" \
    sh -c "grep -q '^| \`breakdown.kernel\`' '$T_DIR/f.md' && ! grep -q '^| \`step.mean\`' '$T_DIR/f.md'"
check "  HTML: no empty step-time chart, no waterfall of the window" \
    sh -c "! grep -q 'Step time per step\\|Waterfall of the change' '$T_DIR/f.html' && grep -q 'Breakdown of each capture' '$T_DIR/f.html'"
"$PR_BIN" diff "$T_DIR/b.pt.trace.json" "$T_DIR/fewer.pt.trace.json" \
    > "$T_DIR/f.txt" 2> /dev/null
check "  terminal: the pair is per capture and has no step.mean row" \
    sh -c "grep -q '(per capture; no steps)' '$T_DIR/f.txt' && ! grep -q '^step.mean' '$T_DIR/f.txt'"

# --- #1: slower per call in the same window, though less time in it
"$PR_BIN" diff -q "$T_DIR/b.pt.trace.json" "$T_DIR/slower.pt.trace.json" \
    --fail-on "kernel:$K>+10%" --json "$T_DIR/s.json" \
    --markdown "$T_DIR/s.md" > /dev/null 2>&1
check "a kernel 25% slower per call trips its rule (exit 3)" [ $? -eq 3 ]
check "  the kernel table shows the calls side by side" \
    grep -q "| \`$K\` | 6 -> 4 | 400 µs | 500 µs | +100 µs | +25.0% |" \
    "$T_DIR/s.md"
check "  at +25% per call (2.4 ms -> 2.0 ms per capture read -17%)" \
    grep -q '"delta_pct":[[:space:]]*25,' "$T_DIR/s.json"

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

# --- #11: two elementwise kernels, one slower, one faster, read apart
two() { # FILE COPY_US MUL_US
    {
        printf '{"schemaVersion":1,"deviceProperties":[{"id":0,"name":"NVIDIA A100-SXM4-80GB","totalGlobalMem":85097971712,"computeMajor":8,"computeMinor":0,"numSms":108}],"traceEvents":['
        ts=1000000
        c=1
        for n in 1 2 3 4; do
            printf '{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%s","pid":1,"tid":1,"ts":%s,"dur":1000},' "$n" "$ts"
            for k in copy mul; do
                [ $k = copy ] && name='void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda(float)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda(float)#1} const&)::{lambda(int)#1})' && d=$2
                [ $k = mul ] && name='void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1})' && d=$3
                printf '{"ph":"X","cat":"cpu_op","name":"aten::%s","pid":1,"tid":1,"ts":%s,"dur":50,"args":{"External id":%s}},' "$k" $((ts + 10)) "$c"
                printf '{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%s,"dur":10,"args":{"correlation":%s,"External id":%s}},' $((ts + 20)) "$c" "$c"
                printf '{"ph":"X","cat":"kernel","name":"%s","pid":0,"tid":7,"ts":%s,"dur":%s,"args":{"correlation":%s,"device":0,"stream":7,"External id":%s}},' "$name" $((ts + 100)) "$d" "$c" "$c"
                ts=$((ts + 400))
                c=$((c + 1))
            done
            ts=$((ts + 200))
        done
        printf '{"ph":"X","cat":"cpu_op","name":"aten::end","pid":1,"tid":1,"ts":%s,"dur":1}]}\n' "$ts"
    } > "$1"
}
two "$T_DIR/e1.pt.trace.json" 100 200
two "$T_DIR/e2.pt.trace.json" 250 150
COLUMNS=120 "$PR_BIN" diff "$T_DIR/e1.pt.trace.json" \
    "$T_DIR/e2.pt.trace.json" > "$T_DIR/e.txt" 2> /dev/null
check "terminal: the slower kernel is named by its copy functor" \
    sh -c "sed -n '/^Top regressions: kernels/,/^\$/p' '$T_DIR/e.txt' | grep -q '^elementwise_kernel<…direct_copy_kernel_cuda'"
check "  the faster one by its multiply functor" \
    sh -c "sed -n '/^Top improvements: kernels/,/^\$/p' '$T_DIR/e.txt' | grep -q '^elementwise_kernel<.*MulFunctor'"
check "  no kernel reads as a bare 'elementwise_kernel<…>'" \
    sh -c "! grep -q '^elementwise_kernel<…> ' '$T_DIR/e.txt'"

echo "1..$T_N"
