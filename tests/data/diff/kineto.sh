# kineto.sh - sourced by the diff and trend tests: small hand-made Kineto
# traces of a chosen step shape (issues #29, #32).

# gen FILE STEPS OP KERNEL [SLOW [CPU]]: one thread; STEPS a list of step
# numbers ("-" for an iteration without a ProfilerStep marker), each
# $STEP_US (default 1000) us long (SLOW: the step of that number takes
# 8 ms) with one OP launching one KERNEL of $KERNEL_US (default 400) us
# (CPU nonempty: no device work at all).  GPU_NAME and GPU_ID (default an
# A100, device 0) set the device the kernels ran on.
gen() {
    f=$1
    steps=$2
    op=$3
    kernel=$4
    slow=${5:-none}
    cpu=${6:-}
    ts=1000000
    c=1
    {
        printf '{"schemaVersion":1,'
        if [ -z "$cpu" ]; then
            printf '"deviceProperties":[{"id":%s,"name":"%s",' \
                "${GPU_ID:-0}" "${GPU_NAME:-NVIDIA A100-SXM4-80GB}"
            printf '"totalGlobalMem":85097971712,"computeMajor":8,'
            printf '"computeMinor":0,"numSms":108}],'
        fi
        printf '"traceEvents":['
        sep=
        for n in $steps; do
            dur=${STEP_US:-1000}
            [ "$n" = "$slow" ] && dur=8000
            if [ "$n" != "-" ]; then
                printf '%s{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%s","pid":1,"tid":1,"ts":%s,"dur":%s}' \
                    "$sep" "$n" "$ts" "$dur"
                sep=,
            fi
            printf '%s{"ph":"X","cat":"cpu_op","name":"%s","pid":1,"tid":1,"ts":%s,"dur":100,"args":{"External id":%s}}' \
                "$sep" "$op" $((ts + 10)) "$c"
            sep=,
            if [ -z "$cpu" ]; then
                printf ',{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%s,"dur":10,"args":{"correlation":%s,"External id":%s}}' \
                    $((ts + 20)) "$c" "$c"
                printf ',{"ph":"X","cat":"kernel","name":"%s","pid":0,"tid":7,"ts":%s,"dur":%s,"args":{"correlation":%s,"device":%s,"stream":7,"External id":%s}}' \
                    "$kernel" $((ts + 40)) "${KERNEL_US:-400}" "$c" "${GPU_ID:-0}" "$c"
            fi
            ts=$((ts + dur + 10))
            c=$((c + 1))
        done
        printf ']}\n'
    }> "$f"
}

