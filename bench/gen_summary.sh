#!/bin/sh
# gen_summary.sh - a synthetic saved summary (schema_version 1) with many
# steps and runs, for timing `profreport diff` and `trend` (bench/diff.sh).
# Same arguments, same bytes.
#
#   bench/gen_summary.sh STEPS_PER_RUN RUNS SCALE SEED > summary.json
#
# Each step lasts about 100 ms x SCALE with a few percent of deterministic
# noise; each run has 8 operators and 4 kernels.
set -eu
LC_ALL=C
export LC_ALL
awk -v steps="$1" -v runs="$2" -v scale="$3" -v seed="$4" '
function rnd() { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648 }
BEGIN {
    state = seed + 1
    cats = "kernel memcpy memset communication runtime dataloader cpu_exec other"
    ncat = split(cats, cat, " ")
    printf "{\n\"schema_version\": 1,\n\"tool\": {\"name\": \"profreport\", \"version\": \"bench\"},\n\"inputs\": [],\n\"runs\": ["
    for (r = 0; r < runs; r++) {
        printf "%s\n{\"worker\": \"worker%d\", \"span\": \"1\", \"rank\": %d, \"devices\": [],\n\"steps\": [", (r ? "," : ""), r, r
        sum = 0
        for (s = 0; s < steps; s++) {
            d = 100000 * scale * (0.97 + 0.06 * rnd())
            sum += d
            printf "%s\n{\"name\": \"ProfilerStep#%d\", \"start_us\": %.1f, \"duration_us\": %.1f, \"breakdown_us\": {", (s ? "," : ""), s, s * 100000.0, d
            for (c = 1; c <= ncat; c++)
                printf "%s\"%s\": %.1f", (c > 1 ? ", " : ""), cat[c], d / ncat
            printf "}}"
        }
        m = steps ? sum / steps : 0
        printf "],\n\"step_summary\": {\"count\": %d, \"mean_us\": %.1f, \"median_us\": %.1f, \"p90_us\": %.1f, \"min_us\": null, \"max_us\": null, \"breakdown_us\": {", steps, m, m, m * 1.02
        for (c = 1; c <= ncat; c++)
            printf "%s\"%s\": %.1f", (c > 1 ? ", " : ""), cat[c], m / ncat
        printf "}},\n\"gpu_metrics\": [{\"device\": 0, \"utilization_pct\": %.1f, \"est_sm_efficiency_pct\": null, \"est_achieved_occupancy_pct\": null, \"kernel_time_us\": %.1f}],\n", 80 + 5 * rnd(), sum / 2
        printf "\"operators\": ["
        for (o = 0; o < 8; o++)
            printf "%s{\"name\": \"aten::op%d\", \"calls\": %d, \"device_self_us\": %.1f, \"device_total_us\": %.1f, \"host_self_us\": 1.0, \"host_total_us\": 1.0}", (o ? ", " : ""), o, steps, sum / (o + 2) * scale, sum / (o + 2) * scale
        printf "],\n\"operators_by_shape\": [],\n\"kernels\": ["
        for (k = 0; k < 4; k++)
            printf "%s{\"name\": \"kernel_%d\", \"operator\": null, \"calls\": %d, \"total_us\": %.1f, \"mean_us\": 1.0, \"min_us\": 1.0, \"max_us\": 1.0}", (k ? ", " : ""), k, steps, sum / (k + 3) * scale
        printf "],\n\"tensor_cores\": {\"tc_kernel_time_pct\": null},\n\"memory\": null,\n\"recommendations\": []}"
    }
    printf "\n],\n\"distributed\": null\n}\n"
}'
