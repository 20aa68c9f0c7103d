#!/bin/sh
# diff_capture2.sh - review 23g on small hand-made Kineto captures without
# steps (diff compares them per call).
# #7: the Calls column is a mean per run, labelled; a change per call
# under 1% is not listed.  #2: the skipped default gate and the headline
# say how to gate such a diff; kernel: globs match the printed name.
# #5: a SendRecv kernel 500 -> 300 us a call on rank 0, 250 -> 750 on
# rank 1 (merged +40%) is peer wait moving, not a slower link.
# #4: a world-size change is a comparability warning.
# #1: an operator whose calls alternate 8 ms and 0.2 ms: its mean per call
# moves with which calls the capture's edges cut (5 calls L S L S L read
# 4.88 ms, 4 calls L S L S read 4.10 ms, no call slower), so the row is
# "mix-sensitive": not ranked and not gated per call.
. "$PR_SRCDIR/tests/lib.sh"

# cap FILE DURS...: one thread, no ProfilerStep; one call of op flash a
# duration, each launching kernel flash_fwd_kernel of that many us.
cap() {
    f=$1
    shift
    ts=1000000
    c=1
    {
        [ -n "${WORLD:-}" ] && printf '{"distributedInfo":{"backend":"nccl","rank":0,"world_size":%s},' "$WORLD" || printf '{'
        printf '"schemaVersion":1,"deviceProperties":[{"id":0,"name":"NVIDIA A100-SXM4-80GB","totalGlobalMem":85097971712,"computeMajor":8,"computeMinor":0,"numSms":108}],"traceEvents":['
        sep=
        for d in "$@"; do
            printf '%s{"ph":"X","cat":"cpu_op","name":"flash","pid":1,"tid":1,"ts":%s,"dur":100,"args":{"External id":%s}}' "$sep" $((ts + 10)) "$c"
            sep=,
            printf ',{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%s,"dur":10,"args":{"correlation":%s,"External id":%s}}' $((ts + 20)) "$c" "$c"
            printf ',{"ph":"X","cat":"kernel","name":"%s","pid":0,"tid":7,"ts":%s,"dur":%s,"args":{"correlation":%s,"device":0,"stream":7,"External id":%s}}' "${KNAME:-flash_fwd_kernel}" $((ts + 40)) "$d" "$c" "$c"
            printf ',{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":%s,"dur":50,"args":{"External id":%s}}' $((ts + 200)) $((c + 1000))
            printf ',{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%s,"dur":10,"args":{"correlation":%s,"External id":%s}}' $((ts + 210)) $((c + 1000)) $((c + 1000))
            printf ',{"ph":"X","cat":"kernel","name":"ampere_sgemm_128x64_nn","pid":0,"tid":7,"ts":%s,"dur":%s,"args":{"correlation":%s,"device":0,"stream":7,"External id":%s}}' $((ts + d + 100)) "${MM_US:-300}" $((c + 1000)) $((c + 1000))
            ts=$((ts + d + 1000))
            c=$((c + 1))
        done
        printf ']}\n'
    } > "$f"
}

# --- #1: a bimodal op cut after a short call (baseline) or a long one
cap "$T_DIR/a.pt.trace.json" 8000 200 8000 200
cap "$T_DIR/b.pt.trace.json" 8000 200 8000 200 8000
"$PR_BIN" diff -q "$T_DIR/a.pt.trace.json" "$T_DIR/b.pt.trace.json" \
    --fail-on 'op:*>+4%' --fail-on 'kernel:*>+4%' --json "$T_DIR/m.json" \
    > "$T_DIR/m.txt" 2> "$T_DIR/m.err"
RC=$?
check "bimodal op, no call slower: op:/kernel: +4% rules do not trip (exit 0)" \
    [ $RC -eq 0 ]
check "  the rules judged the steady aten::mm, not flash" \
    grep -q '"detail":[[:space:]]*"aten::mm 0.0%' "$T_DIR/m.json"
check "  the flash rows are not compared: mix-sensitive" \
    sh -c "grep -c '\"not_comparable\":[[:space:]]*\"mix-sensitive: its calls differ up to 40x' '$T_DIR/m.json' | grep -qx 3"
"$PR_BIN" diff "$T_DIR/a.pt.trace.json" "$T_DIR/b.pt.trace.json" \
    > "$T_DIR/m.txt" 2> /dev/null
check "  no regression row for flash (its +19% per call is the window's edge)" \
    sh -c "! sed -n '/^Top regressions: operators/,/^\$/p' '$T_DIR/m.txt' | grep -q '^flash '"
check "  the list says a row was left out as mix-sensitive" \
    grep -q "not compared (mix-sensitive" "$T_DIR/m.txt"
# a steady op beside it is still compared per call
MM_US=400 cap "$T_DIR/c.pt.trace.json" 8000 200 8000 200 8000
"$PR_BIN" diff -q "$T_DIR/a.pt.trace.json" "$T_DIR/c.pt.trace.json" \
    --fail-on 'op:aten::mm>+10%' > /dev/null 2>&1
check "  a steady op 300 -> 400 us a call still trips its rule (exit 3)" \
    [ $? -eq 3 ]

# --- #7: calls per run, labelled; +0.3% a call is not listed
MM_US=301 cap "$T_DIR/d.pt.trace.json" 8000 200 8000 200
COLUMNS=160 "$PR_BIN" diff "$T_DIR/a.pt.trace.json" "$T_DIR/d.pt.trace.json" \
    > "$T_DIR/d.txt" 2> /dev/null
check "  aten::mm 300 -> 301 us a call (+0.3%) is no listed regression" \
    sh -c "! grep -q '^aten::mm ' '$T_DIR/d.txt' && grep -q '1 row changed under 1% a call (not listed)' '$T_DIR/d.txt'"

# --- #2: the remedy, and a glob on the name the reports print
KNAME='void ns::my_kernel<float>(int)' cap "$T_DIR/k1.pt.trace.json" \
    400 400 400 400
KNAME='void ns::my_kernel<float>(int)' cap "$T_DIR/k2.pt.trace.json" \
    500 500 500
COLUMNS=300 "$PR_BIN" diff "$T_DIR/k1.pt.trace.json" "$T_DIR/k2.pt.trace.json" \
    > "$T_DIR/k.txt" 2> /dev/null
check "the skipped default gate says how to gate captures" \
    sh -c "tr -s ' \\n' '  ' < '$T_DIR/k.txt' | grep -q \"gate a diff of captures without steps with --fail-on 'rate.kernels<-5%' (kernels per second of capture), --fail-on 'gpu.utilization<-5pp'\""
check "  the calls column says it is calls per run (4 -> 3)" \
    grep -q "^void ns::my_kernel<float>(int)  *4 -> 3 " "$T_DIR/k.txt"
check "  and is labelled so" grep -q "^Name  *Calls per run  *Baseline" \
    "$T_DIR/k.txt"
check "  the INCONCLUSIVE headline names the largest GPU change" \
    grep -q "^profreport diff: INCONCLUSIVE (.*largest GPU change gpu.utilization GPU 0 .* pp" \
    "$T_DIR/k.txt"
"$PR_BIN" diff -q "$T_DIR/k1.pt.trace.json" "$T_DIR/k2.pt.trace.json" \
    --fail-on 'kernel:my_kernel*>+10%' > /dev/null 2>&1
check "  kernel:my_kernel* matches 'void ns::my_kernel<float>(int)' (exit 3)" \
    [ $? -eq 3 ]

# --- #5: per-run changes of a communication kernel, opposite
mkdir -p "$T_DIR/A" "$T_DIR/B"
for x in A:0:500 A:1:250 B:0:300 B:1:750; do
    side=${x%%:*}
    rest=${x#*:}
    KNAME=ncclDevKernel_SendRecv WORLD=2 cap \
        "$T_DIR/$side/r${rest%%:*}.pt.trace.json" ${rest#*:} ${rest#*:} \
        ${rest#*:} ${rest#*:}
done
sed 's/"rank":0/"rank":1/' "$T_DIR/A/r1.pt.trace.json" > "$T_DIR/x" &&
    mv "$T_DIR/x" "$T_DIR/A/r1.pt.trace.json"
sed 's/"rank":0/"rank":1/' "$T_DIR/B/r1.pt.trace.json" > "$T_DIR/x" &&
    mv "$T_DIR/x" "$T_DIR/B/r1.pt.trace.json"
"$PR_BIN" diff "$T_DIR/A" "$T_DIR/B" --fail-on 'kernel:*>+20%' \
    --json "$T_DIR/pw.json" > "$T_DIR/pw.txt" 2>&1
RC=$?
check "SendRecv -40% on one rank, +200% on the other: the +20% rule does not trip (exit 0)" \
    [ $RC -eq 0 ]
check "  the row says peer wait, with each run's change" \
    grep -q '"not_comparable":[[:space:]]*"peer wait: per call by run (in order), r0 500 -> 300 µs (-40%); r1 250 -> 750 µs (+200%): a communication call lasts until its peer arrives' \
    "$T_DIR/pw.json"
check "  per_run holds both pairs" \
    sh -c "grep -q '\"per_run\"' '$T_DIR/pw.json' && grep -q '\"delta_pct\":[[:space:]]*200' '$T_DIR/pw.json'"

# --- #4: 8 ranks against 2
WORLD=8 cap "$T_DIR/w8.pt.trace.json" 400 400
WORLD=2 cap "$T_DIR/w2.pt.trace.json" 400 400
"$PR_BIN" diff "$T_DIR/w8.pt.trace.json" "$T_DIR/w2.pt.trace.json" \
    --json "$T_DIR/w.json" > /dev/null 2>&1
check "world sizes 8 and 2: a comparability warning" \
    grep -q '"run .*: world size differs: 8 (baseline), 2 (current): collectives change size and algorithm' \
    "$T_DIR/w.json"
WORLD=2 cap "$T_DIR/w2b.pt.trace.json" 400 400
"$PR_BIN" diff "$T_DIR/w2b.pt.trace.json" "$T_DIR/w2.pt.trace.json" \
    --json "$T_DIR/w.json" > /dev/null 2>&1
check "  none for 2 against 2" sh -c "! grep -q 'world size differs' '$T_DIR/w.json'"

# --- the real pair the review measured (nsys mfu_2gpu before/after)
N=${PR_SHARED:-/nonexistent}/traces/nsys
if [ -f "$N/mfu_2gpu_before.sqlite" ]; then
    COLUMNS=160 "$PR_BIN" diff -b "$N/mfu_2gpu_before.sqlite" \
        -i "$N/mfu_2gpu_after.sqlite" > "$T_DIR/n.txt" 2> /dev/null
    "$PR_BIN" diff -q -b "$N/mfu_2gpu_before.sqlite" \
        -i "$N/mfu_2gpu_after.sqlite" --json "$T_DIR/n.json" > /dev/null 2>&1
    check "nsys: flash_attn's +4.8% a call (the window's edges) is no regression" \
        sh -c "! grep -q '^flash_attn::_flash_attn_forward ' '$T_DIR/n.txt'"
    check "  SendRecv: each GPU's change (GPU 0 520 -> 322, GPU 1 249 -> 766 µs)" \
        grep -q 'peer wait: per call by run (in order), gpu0 pid 148 520 -> 322 µs (-38%); gpu1 pid 149 249 -> 766 µs (+207%)' \
        "$T_DIR/n.json"
    check "  the kernels list names both reasons it left rows out for" \
        grep -q '^8 rows not compared (1 peer wait: .*; 7 mix-sensitive' \
        "$T_DIR/n.txt"
    # review24 #5: the same per-call times, ~10% fewer kernels a second
    check "  the headline names the fall of the kernels per second" \
        grep -q 'the current capture ran 10.9% fewer kernels per second (GPU 1: 6,726/s -> 5,995/s) at the same per-call times (+0.1%)' \
        "$T_DIR/n.txt"
else
    skip "nsys mfu_2gpu pair" "no $N"
fi
echo "1..$T_N"
