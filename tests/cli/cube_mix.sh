#!/bin/sh
# cube_mix.sh - hunt31 #4: a MIX_AIC task (a mixed launch of the Cube core
# and the vector cores, CANN's Task Type / Accelerator Core) says which
# unit did its work only through its PMU counters.
# - Without counters: Cube not known (tensor_cores_used null, not true;
#   by_math "unknown", not "cube"; the Cube share of kernel time null),
#   each call's tc in kernel-calls null, `--why` says a mixed launch
#   without PMU counters; a Cube operator type (MatMulV3) still says the
#   Cube.
# - With counters: aic_mac_ratio 0.0 is "no", 0.8 "yes", and `--why` says
#   the PMU counters decided and names the counter with its value (main
#   said "from the unit its producer names" for both).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "MIX_AIC Cube" "no python3"
    echo "1..$T_N"
    exit 0
fi

BASE='Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,Mix Block Dim'
# kd DIR TYPE [MAC]: one MIX_AIC main_kernel of 70 ms (3 calls); MAC: its
# aic_mac_ratio (PMU columns), none: no PMU columns
kd() {
    mkdir -p "$1"
    if [ $# -ge 3 ]; then
        echo "$BASE,aicore_time(us),aic_total_cycles,aic_mac_ratio,aic_scalar_ratio"
    else
        echo "$BASE"
    fi > "$1/kernel_details.csv"
    for i in 0 1 2; do
        ts=$((1000000 + i * 80000))
        row="1,4294967295,$((i + 1)),2,main_kernel,$2,MIX_AIC,$ts.0,70000.0,0,24,48"
        if [ $# -ge 3 ]; then
            row="$row,70000.0,126000000,$3,0.999"
        fi
        echo "$row"
    done >> "$1/kernel_details.csv"
}

# facts SUMMARY: the kernel row's tensor_cores_used
facts() {
    python3 - "$1" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
k = [x for x in r["kernels"] if x["name"] == "main_kernel"][0]
print(k["tensor_cores_used"])
PY
}

why() {
    "$PR_BIN" table -q -i "$1/kernel_details.csv" --kind kernels \
        --why main_kernel 2> /dev/null
}

kd "$T_DIR/nopmu" main_kernel
"$PR_BIN" -q -i "$T_DIR/nopmu/kernel_details.csv" --json "$T_DIR/nopmu.json"
check "MIX_AIC without counters: exit 0" [ $? -eq 0 ]
set -- $(facts "$T_DIR/nopmu.json")
check "MIX_AIC without counters: tensor_cores_used null ($1)" test "$1" = None
check "MIX_AIC without counters: kernel_classes' math unknown, Cube share null" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
m = [x['math'] for x in r['kernel_classes']['by_math']]
assert m == ['unknown'], m
assert r['tensor_cores']['tc_kernel_time_pct'] is None, r['tensor_cores']
" "$T_DIR/nopmu.json"
why "$T_DIR/nopmu" > "$T_DIR/nopmu.why"
check "--why: Cube not known, a mixed launch without PMU counters" \
    grep -q '^cube  *not known: a mixed Cube and vector launch without PMU' \
    "$T_DIR/nopmu.why"
check "--why: its math not known, the export's MIX_AIC named" \
    grep -q '^math  *not known: .*mixed Cube and vector launch (MIX_AIC)' \
    "$T_DIR/nopmu.why"

"$PR_BIN" table -q -i "$T_DIR/nopmu/kernel_details.csv" --kind kernel-calls \
    --csv -c kernel,tc > "$T_DIR/nopmu.calls" 2> /dev/null
check "kernel-calls: each call's tc empty (null), not yes" \
    test "$(grep -c '^main_kernel,$' "$T_DIR/nopmu.calls")" -eq 3

kd "$T_DIR/mm" MatMulV3
"$PR_BIN" -q -i "$T_DIR/mm/kernel_details.csv" --json "$T_DIR/mm.json"
set -- $(facts "$T_DIR/mm.json")
check "MIX_AIC MatMulV3 without counters: the Cube ($1)" test "$1" = True

kd "$T_DIR/idle" main_kernel 0.0
"$PR_BIN" -q -i "$T_DIR/idle/kernel_details.csv" --json "$T_DIR/idle.json"
set -- $(facts "$T_DIR/idle.json")
check "MIX_AIC, aic_mac_ratio 0.0: no Cube ($1)" test "$1" = False
why "$T_DIR/idle" > "$T_DIR/idle.why"
check "--why: 'no', from its PMU counters (aic_mac_ratio 0)" \
    grep -q '^cube  *no, from its PMU counters (aic_mac_ratio 0)' \
    "$T_DIR/idle.why"
check "--why: the math from the PMU counters, not from the unit's name" \
    sh -c "grep -q '^math .*from its PMU counters (aic_mac_ratio 0' '$T_DIR/idle.why' && ! grep -q 'from the unit its producer names' '$T_DIR/idle.why'"

kd "$T_DIR/busy" main_kernel 0.8
"$PR_BIN" -q -i "$T_DIR/busy/kernel_details.csv" --json "$T_DIR/busy.json"
set -- $(facts "$T_DIR/busy.json")
check "MIX_AIC, aic_mac_ratio 0.8: the Cube ($1)" test "$1" = True
why "$T_DIR/busy" > "$T_DIR/busy.why"
check "--why: 'yes', from its PMU counters (aic_mac_ratio 0.8)" \
    grep -q '^cube  *yes: most of its time on the Cube, from its PMU counters (aic_mac_ratio 0.8)' \
    "$T_DIR/busy.why"

echo "1..$T_N"
