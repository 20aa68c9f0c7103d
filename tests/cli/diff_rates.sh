#!/bin/sh
# diff_rates.sh - review24 #5: two captures without steps compare a work
# rate over windows of about one length: kernels per second of capture
# (rate.kernels), GEMM kernel calls per second (rate.gemm) and the
# baseline's most frequent operator's calls per second (rate.op), gated
# by --fail-on 'rate.kernels<-5%'; windows more than 10% apart are not
# compared.  The headline says when the rate fell at the same per-call
# times; over several runs a side the calls column is a mean per rank.
. "$PR_SRCDIR/tests/lib.sh"

# cap FILE N WINDOW_US: one thread, no ProfilerStep; N calls of aten::mm,
# each launching one 100 us GEMM kernel, a call every 1 ms, and a last
# event at WINDOW_US, so that the capture is that long whatever N
cap() {
    ts=1000000
    c=1
    {
        printf '{"schemaVersion":1,"deviceProperties":[{"id":0,"name":"NVIDIA A100-SXM4-80GB","totalGlobalMem":85097971712,"computeMajor":8,"computeMinor":0,"numSms":108}],"traceEvents":['
        while [ "$c" -le "$2" ]; do
            printf '{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":%s,"dur":50,"args":{"External id":%s}},' "$ts" "$c"
            printf '{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%s,"dur":10,"args":{"correlation":%s,"External id":%s}},' $((ts + 10)) "$c" "$c"
            printf '{"ph":"X","cat":"kernel","name":"ampere_sgemm_128x64_nn","pid":0,"tid":7,"ts":%s,"dur":100,"args":{"correlation":%s,"device":0,"stream":7,"External id":%s}},' $((ts + 30)) "$c" "$c"
            ts=$((ts + 1000))
            c=$((c + 1))
        done
        printf '{"ph":"X","cat":"cpu_op","name":"aten::end","pid":1,"tid":1,"ts":%s,"dur":1}]}\n' $((1000000 + $3 - 1))
    } > "$1"
}
cap "$T_DIR/a.pt.trace.json" 90 100000
cap "$T_DIR/b.pt.trace.json" 80 100000
cap "$T_DIR/c.pt.trace.json" 40 50000
# hunt31 #8: a rate under ten a second keeps two significant digits (3
# and 2 kernels in 20 s: 0.15/s and 0.1/s, not "0/s")
cap "$T_DIR/s3.pt.trace.json" 3 20000000
cap "$T_DIR/s2.pt.trace.json" 2 20000000
COLUMNS=200 "$PR_BIN" diff "$T_DIR/s3.pt.trace.json" "$T_DIR/s2.pt.trace.json" \
    > "$T_DIR/s.txt" 2> /dev/null
check "slow rates: 0.15/s -> 0.1/s, change -0.05/s" \
    grep -Eq '^rate\.kernels GPU 0 +0\.15/s +0\.1/s +-0\.05/s -33\.3% ' "$T_DIR/s.txt"

COLUMNS=200 "$PR_BIN" diff "$T_DIR/a.pt.trace.json" "$T_DIR/b.pt.trace.json" \
    > "$T_DIR/ab.txt" 2> /dev/null
check "90 -> 80 calls in equal windows, no other gate: INCONCLUSIVE (exit 4)" \
    [ $? -eq 4 ]
"$PR_BIN" diff -q "$T_DIR/a.pt.trace.json" "$T_DIR/b.pt.trace.json" \
    --json "$T_DIR/ab.json" > /dev/null 2>&1
check "  rate.kernels: 900/s -> 800/s, -11.1%" \
    grep -Eq '^rate\.kernels GPU 0 +900/s +800/s +-100/s -11\.1% ' "$T_DIR/ab.txt"
check "  rate.gemm: the GEMM kernel's calls a second, the same" \
    grep -Eq '^rate\.gemm GPU 0 +900/s +800/s +-100/s -11\.1% ' "$T_DIR/ab.txt"
check "  rate.op names the most frequent operator" \
    grep -Eq '^rate\.op aten::mm GPU 0 +900/s +800/s +-100/s -11\.1% ' "$T_DIR/ab.txt"
check "  the JSON keeps the calls, the windows and the per-call change" \
    sh -c "tr -d '[:space:]' < '$T_DIR/ab.json' | grep -q '\"per_call_change_pct\":0,\"baseline_calls\":90,\"current_calls\":80,\"baseline_window_us\":100000,\"current_window_us\":100000'"
check "  the headline: fewer kernels a second at the same per-call times" \
    grep -q "^profreport diff: INCONCLUSIVE (.*the current capture ran 11.1% fewer kernels per second (GPU 0: 900/s -> 800/s) at the same per-call times (+0.0%): gate it with --fail-on 'rate.kernels<-5%')" \
    "$T_DIR/ab.txt"

"$PR_BIN" diff -q "$T_DIR/a.pt.trace.json" "$T_DIR/b.pt.trace.json" \
    --fail-on 'rate.kernels<-5%' --json "$T_DIR/g.json" > /dev/null 2>&1
check "--fail-on 'rate.kernels<-5%' trips (exit 3)" [ $? -eq 3 ]
check "  its gate line names the rate" \
    grep -q '"detail":[[:space:]]*"rate.kernels .*-11.1%' "$T_DIR/g.json"
"$PR_BIN" diff -q "$T_DIR/a.pt.trace.json" "$T_DIR/b.pt.trace.json" \
    --fail-on 'rate.op<-20%' > /dev/null 2>&1
check "--fail-on 'rate.op<-20%' compares and passes (exit 0)" [ $? -eq 0 ]
"$PR_BIN" diff -q "$T_DIR/b.pt.trace.json" "$T_DIR/a.pt.trace.json" \
    --fail-on 'rate.kernels<-5%' > /dev/null 2>&1
check "the other way round (+12.5%) it does not trip (exit 0)" [ $? -eq 0 ]

COLUMNS=200 "$PR_BIN" diff "$T_DIR/a.pt.trace.json" "$T_DIR/c.pt.trace.json" \
    --fail-on 'rate.kernels<-5%' > "$T_DIR/ac.txt" 2> /dev/null
check "windows of 100 and 50 ms: the rate gate is skipped (exit 4)" [ $? -eq 4 ]
check "  its rows are not compared, and say why" \
    grep -Eq '^rate\.kernels GPU 0 +900/s +800/s +not compared \(capture windows over 10% apart\)' \
    "$T_DIR/ac.txt"
check "  no rate in the headline" sh -c "! grep -q 'kernels per second (' '$T_DIR/ac.txt'"

"$PR_BIN" diff -q "$T_DIR/a.pt.trace.json" "$T_DIR/b.pt.trace.json" \
    --fail-on 'rate.kernels<-5ms' > /dev/null 2> "$T_DIR/bad.err"
check "'rate.kernels<-5ms' is a bad rule (exit 1)" [ $? -eq 1 ]
check "  rate.kernels takes %" grep -q 'rate.kernels takes %"\?$' "$T_DIR/bad.err"
"$PR_BIN" diff --help > "$T_DIR/help" 2>&1
check "diff --help names the rates" grep -q 'rate.kernels' "$T_DIR/help"

# steps: no rate rows
"$PR_BIN" diff -q --json "$T_DIR/s.json" \
    -b "$PR_SRCDIR/tests/data/diff/base.json" \
    -i "$PR_SRCDIR/tests/data/diff/slow.json" > /dev/null 2>&1
check "runs with steps get no rate rows" \
    sh -c "! grep -q 'rate.kernels' '$T_DIR/s.json'"

# the nsys pair of review24 #5: 1,993 -> 1,793 kernels (GPU 0) and 2,017 ->
# 1,794 (GPU 1) in ~300 ms windows, the same time per call
N=$PR_SHARED/traces/nsys
if [ -f "$N/mfu_2gpu_before.sqlite" ] && [ -f "$N/mfu_2gpu_after.sqlite" ]; then
    COLUMNS=200 "$PR_BIN" diff "$N/mfu_2gpu_before.sqlite" \
        "$N/mfu_2gpu_after.sqlite" --fail-on 'rate.kernels<-5%' \
        > "$T_DIR/n.txt" 2> /dev/null
    check "nsys pair: rate.kernels<-5% trips (exit 3)" [ $? -eq 3 ]
    check "  GPU 0 6,646/s -> 5,992/s (-9.8%), GPU 1 -10.9%" \
        sh -c "grep -Eq '^rate\\.kernels GPU 0 +6,646/s +5,992/s +-654/s -9\\.8% ' '$T_DIR/n.txt' &&
               grep -Eq '^rate\\.kernels GPU 1 +6,726/s +5,995/s +-732/s -10\\.9% ' '$T_DIR/n.txt'"
    check "  GEMMs 557/s -> 505/s on GPU 0 (167 -> 151 nvjet calls)" \
        grep -Eq '^rate\.gemm GPU 0 +557/s +505/s ' "$T_DIR/n.txt"
    check "  the calls column over two ranks is a mean per rank (253.5 -> 226)" \
        sh -c "grep -q '^Name  *Calls, mean per rank  *Baseline' '$T_DIR/n.txt' &&
               grep -Eq '^aten::add +253\\.5 -> 226 ' '$T_DIR/n.txt'"
else
    skip "nsys mfu_2gpu pair" "no $N"
fi
echo "1..$T_N"
