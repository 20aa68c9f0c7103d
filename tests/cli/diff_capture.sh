#!/bin/sh
# diff_capture.sh - review 22g on small hand-made Kineto traces.
# #7: a change is coloured by whether it is better or worse, not by its
# sign (GPU utilization falling is worse).  #11: two kernels the terminal
# would print as "elementwise_kernel<…>" read apart.
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
check "  the faster one by its binary functor" \
    sh -c "sed -n '/^Top improvements: kernels/,/^\$/p' '$T_DIR/e.txt' | grep -q '^elementwise_kernel<….*BinaryFunctor'"
check "  no kernel reads as a bare 'elementwise_kernel<…>'" \
    sh -c "! grep -q '^elementwise_kernel<…> ' '$T_DIR/e.txt'"


echo "1..$T_N"
