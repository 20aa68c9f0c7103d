#!/bin/sh
# diff_names.sh - review24 #4: the diff's kernel tables fit a long name by
# shrinking whole parts (a template argument list to "<…>", a whole
# argument to "…", the middle parts of a long identifier), never by
# cutting inside the name that tells two kernels apart, and keep their
# brackets balanced ("…e_kernel_impl{lambda", "…ortPolicy<…>Policy800",
# "{lambd…" and ">, unsigned int, 1, …>" were what the terminal showed).
. "$PR_SRCDIR/tests/lib.sh"

# the names of the HTA trace_diff pair and the nsys mfu_2gpu pair
N1='void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::where_kernel_impl(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#8}::operator()() const::{lambda(bool, long, long)#1}, at::detail::Array<char*, 4> >(int, at::native::(anonymous namespace)::where_kernel_impl(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#8}::operator()() const::{lambda(bool, long, long)#1}, at::detail::Array<char*, 4>)'
N2='void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::where_kernel_impl(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#14}::operator()() const::{lambda(bool, float, float)#1}, at::detail::Array<char*, 4> >(int, at::native::(anonymous namespace)::where_kernel_impl(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#14}::operator()() const::{lambda(bool, float, float)#1}, at::detail::Array<char*, 4>)'
N3='void cub::DeviceRadixSortOnesweepKernel<cub::DeviceRadixSortPolicy<long, int, int>::Policy800, false, long, int, int, int>(int*, int*, int*, int const*, long*, long const*, int*, int const*, int, int, int)'
N4='void cub::DeviceRadixSortOnesweepKernel<cub::DeviceRadixSortPolicy<long, float, int>::Policy800, false, long, float, int, int>(int*, int*, int*, int const*, long*, long const*, float*, float const*, int, int, int)'
N5='void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1})'
N6='void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::BUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::BUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1})'
N7='void split_embedding_backward_codegen_rowwise_adagrad_unweighted_kernel_cta_per_row_1<float, float, float, 2ul>(at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, int>, float, long)'
N8='void split_embedding_backward_codegen_rowwise_adagrad_weighted_kernel_cta_per_row_1<float, float, float, 1ul>(at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, int>, float, long)'
N9='void at::native::<unnamed>::CatArrayBatchedCopy_vectorized<at::native::<unnamed>::OpaqueType<(unsigned int)2>, unsigned int, (int)1, (int)128, (int)1, (int)16, (int)8>(char *, at::native::<unnamed>::CatArrInputTensorMetadata<T1, T2, T4, T5>, at::native::<unnamed>::TensorSizeStride<T2, (unsigned int)4>, int, T2)'
N10='void at::native::<unnamed>::CatArrayBatchedCopy_vectorized<at::native::<unnamed>::OpaqueType<(unsigned int)4>, unsigned int, (int)2, (int)128, (int)1, (int)16, (int)8>(char *, at::native::<unnamed>::CatArrInputTensorMetadata<T1, T2, T4, T5>, at::native::<unnamed>::TensorSizeStride<T2, (unsigned int)4>, int, T2)'
trace() { # FILE US MISSING: four steps, one call of each kernel a step
    # (US microseconds; N1 a step faster; kernel MISSING left out)
    {
        printf '{"schemaVersion":1,"deviceProperties":[{"id":0,"name":"NVIDIA A100-SXM4-80GB","totalGlobalMem":85097971712,"computeMajor":8,"computeMinor":0,"numSms":108}],"traceEvents":['
        ts=1000000
        c=1
        for n in 1 2 3 4; do
            printf '{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%s","pid":1,"tid":1,"ts":%s,"dur":4000},' "$n" "$ts"
            for k in 1 2 3 4 5 6 7 8 9 10; do
                [ "$k" = "$3" ] && continue
                eval "name=\$N$k"
                d=$((100 + k + $2))
                printf '{"ph":"X","cat":"cpu_op","name":"op%s","pid":1,"tid":1,"ts":%s,"dur":50,"args":{"External id":%s}},' "$k" $((ts + 10)) "$c"
                printf '{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%s,"dur":10,"args":{"correlation":%s,"External id":%s}},' $((ts + 20)) "$c" "$c"
                printf '{"ph":"X","cat":"kernel","name":"%s","pid":0,"tid":7,"ts":%s,"dur":%s,"args":{"correlation":%s,"device":0,"stream":7,"External id":%s}},' "$name" $((ts + 100)) "$d" "$c" "$c"
                ts=$((ts + 350))
                c=$((c + 1))
            done
            ts=$((ts + 500))
        done
        printf '{"ph":"X","cat":"cpu_op","name":"aten::end","pid":1,"tid":1,"ts":%s,"dur":1}]}\n' "$ts"
    } > "$1"
}
trace "$T_DIR/a.pt.trace.json" 0 8
trace "$T_DIR/b.pt.trace.json" 60 7

# the name cells of the kernel tables of a terminal COLUMNS wide
names() { # COLUMNS OUT
    COLUMNS=$1 "$PR_BIN" diff "$T_DIR/a.pt.trace.json" \
        "$T_DIR/b.pt.trace.json" > "$T_DIR/d$1.txt" 2> /dev/null
    sed -n '/^Top regressions: kernels/,/^Method$/p' "$T_DIR/d$1.txt" |
        grep -v '^Top \|^New and\|^---\|^Name \|^$\|^([0-9n]\|rows\|^Method' |
        sed 's/  .*//' > "$2"
}
for w in 120 100; do
    names $w "$T_DIR/n$w.txt"
    check "$w columns: ten kernels in the tables" \
        sh -c "[ \$(wc -l < '$T_DIR/n$w.txt') -eq 10 ]"
    check "  the lambdas whole (not \"{lambda(bool, long…\")" \
        sh -c "grep -q '{lambda(bool, long, long)}' '$T_DIR/n$w.txt' &&
               grep -q '{lambda(bool, float, float)}' '$T_DIR/n$w.txt'"
    if [ $w = 120 ]; then
        check "  where_kernel_impl whole (not \"…e_kernel_impl\")" \
            sh -c "[ \$(grep -c '<4, where_kernel_impl{lambda(bool, ' '$T_DIR/n$w.txt') -eq 2 ]"
    fi
    check "  the radix sort's own name whole, no \"…ortPolicy<…>Policy800\"" \
        sh -c "[ \$(grep -c '^DeviceRadixSortOnesweepKernel<' '$T_DIR/n$w.txt') -eq 2 ] &&
               ! grep -q 'ortPolicy<…>Policy' '$T_DIR/n$w.txt'"
    check "  the Binary and the BUnary functor whole, no \"{lambd…\"" \
        sh -c "grep -q '<BinaryFunctor<' '$T_DIR/n$w.txt' &&
               grep -q '<BUnaryFunctor<' '$T_DIR/n$w.txt' &&
               ! grep -q '{lambd…' '$T_DIR/n$w.txt'"
    check "  unweighted and weighted adagrad told apart by name" \
        sh -c "grep -q '_unweighted\(_kernel\|…\)_cta_per_row_1<' '$T_DIR/n$w.txt' &&
               grep -q '_weighted\(_kernel\|…\)_cta_per_row_1<' '$T_DIR/n$w.txt'"
    check "  the vectorized cat keeps its element type, balanced" \
        grep -q '^CatArrayBatchedCopy_vectorized<OpaqueType<2>, ' "$T_DIR/n$w.txt"
    check "  every name's brackets balanced" awk '
        { d = 0; for (i = 1; i <= length($0); i++) {
              c = substr($0, i, 1)
              if (c == "<" || c == "(" || c == "{") d++
              else if (c == ">" || c == ")" || c == "}") { d--; if (d < 0) exit 1 }
          }
          if (d != 0) exit 1 }' "$T_DIR/n$w.txt"
done

echo "1..$T_N"
