#!/bin/sh
# trend_capture.sh - review 25u #3: `trend` over captures without steps
# (an nsys export, a Kineto trace without ProfilerStep: its one "step" is
# the profiler's window, which `diff` does not compare) never speaks of
# steps: the nights' table says "Capture (no steps)" with no p90 of one
# value, no "Step time" chart, the breakdown and operators "per capture",
# and it charts what such nights can be gated on instead: each device's
# utilization and the top kernels' time per call.  A memory chart no
# night has data for is one line, not an empty panel.
# Hand-made: three Kineto captures, kernel flash 400 us a call (4 calls),
# 500 us (3 calls), 400 us again; the stepped nights of tests/data/diff
# keep their step words.  Real: nsys mfu_2gpu_before/after.
. "$PR_SRCDIR/tests/lib.sh"

D=$PR_SRCDIR/tests/data/diff

# cap FILE DURS...: one thread, no ProfilerStep; a call of op flash per
# duration, each launching kernel flash of that many us on GPU 0.
cap() {
    f=$1
    shift
    ts=1000000
    c=1
    {
        printf '{"schemaVersion":1,"deviceProperties":[{"id":0,"name":"NVIDIA A100-SXM4-80GB","totalGlobalMem":85097971712,"computeMajor":8,"computeMinor":0,"numSms":108}],"traceEvents":['
        sep=
        for d in "$@"; do
            printf '%s{"ph":"X","cat":"cpu_op","name":"flash","pid":1,"tid":1,"ts":%s,"dur":100,"args":{"External id":%s}}' "$sep" $((ts + 10)) "$c"
            sep=,
            printf ',{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%s,"dur":10,"args":{"correlation":%s,"External id":%s}}' $((ts + 20)) "$c" "$c"
            printf ',{"ph":"X","cat":"kernel","name":"flash_fwd_kernel","pid":0,"tid":7,"ts":%s,"dur":%s,"args":{"correlation":%s,"device":0,"stream":7,"External id":%s}}' $((ts + 40)) "$d" "$c" "$c"
            ts=$((ts + d + 1000))
            c=$((c + 1))
        done
        printf ']}\n'
    } > "$f"
}

cap "$T_DIR/n1.pt.trace.json" 400 400 400 400
cap "$T_DIR/n2.pt.trace.json" 500 500 500
cap "$T_DIR/n3.pt.trace.json" 400 400 400 400
"$PR_BIN" trend -q --keep-order "$T_DIR/n1.pt.trace.json" \
    "$T_DIR/n2.pt.trace.json" "$T_DIR/n3.pt.trace.json" \
    --json "$T_DIR/t.json" --html "$T_DIR/t.html" --markdown "$T_DIR/t.md" \
    --pdf "$T_DIR/t.pdf"
check "captures without steps: trend runs (exit 0)" [ $? -eq 0 ]
if command -v python3 > /dev/null 2>&1; then
    check "  the trend says no night has steps, each night 0 steps" \
        python3 -c "
import json, sys
t = json.load(open('$T_DIR/t.json'))
assert t['no_steps'] is True, t['no_steps']
assert [n['steps'] for n in t['nights']] == [0, 0, 0], t['nights']
assert t['top_kernels'] == ['flash_fwd_kernel'], t['top_kernels']
k = [n['kernels_us_per_call']['flash_fwd_kernel'] for n in t['nights']]
assert k == [400, 500, 400], k
u = [sorted(n['utilization_pct']) for n in t['nights']]
assert u == [['GPU 0']] * 3, u
"
else
    skip "  the trend says no night has steps" "no python3"
fi
check "  the nights' table says Capture (no steps), not Mean step or p90" \
    sh -c "grep -q '^| # | Input | Capture (no steps) | Memory peak |' '$T_DIR/t.md' &&
        ! grep -q 'Mean step\|p90' '$T_DIR/t.md'"
check "  no step chart; the breakdown and operators are per capture" \
    sh -c "! grep -q '>Step time<\|Mean step\|per step\|mean step' '$T_DIR/t.html' &&
        grep -q '>Breakdown per capture (no steps)<' '$T_DIR/t.html' &&
        grep -q '>Top operators (device time per capture)<' '$T_DIR/t.html'"
check "  the utilization per device and kernels per call are charted" \
    sh -c "grep -q '>Utilization per device (share of each capture)<' '$T_DIR/t.html' &&
        grep -q '>Top kernels (device time per call)<' '$T_DIR/t.html' &&
        grep -q '>GPU 0<' '$T_DIR/t.html' && grep -q '>flash_fwd_kernel<' '$T_DIR/t.html'"
check "  no memory panel: one line says no night records memory" \
    sh -c "grep -q 'Memory peak: no night records memory' '$T_DIR/t.html' &&
        ! grep -q 'font-weight=\"600\"[^>]*>Memory peak<' '$T_DIR/t.html' &&
        ! grep -q '>no data<' '$T_DIR/t.html'"
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext "$T_DIR/t.pdf" "$T_DIR/t.txt"
    check "  the PDF charts the same, without step words" \
        sh -c "grep -q 'Utilization per device' '$T_DIR/t.txt' &&
            grep -q '^Capture' '$T_DIR/t.txt' &&
            grep -q 'Memory peak: no night records memory' '$T_DIR/t.txt' &&
            ! grep -q 'Step time\|Mean step\|per step' '$T_DIR/t.txt'"
else
    skip "  the PDF charts the same" "no pdftotext"
fi
COLUMNS=120 "$PR_BIN" trend -q --keep-order "$T_DIR/n1.pt.trace.json" \
    "$T_DIR/n2.pt.trace.json" > "$T_DIR/t.txt"
check "  the terminal table too" \
    sh -c "grep -q '^# *Input *Capture (no steps) *Memory peak' '$T_DIR/t.txt' &&
        ! grep -q 'Mean step' '$T_DIR/t.txt'"

# the same captures as NPU runs: "NPU 0", and the chart says what an
# NPU's utilization counts (review 25u #4)
if command -v python3 > /dev/null 2>&1; then
    for x in n1 n2; do
        "$PR_BIN" -q -i "$T_DIR/$x.pt.trace.json" --json "$T_DIR/$x.json"
        python3 -c "
import json
s = json.load(open('$T_DIR/$x.json'))
for r in s['runs']:
    r['device_kind'] = 'npu'
json.dump(s, open('$T_DIR/${x}n.json', 'w'))
"
    done
    "$PR_BIN" trend -q --keep-order "$T_DIR/n1n.json" "$T_DIR/n2n.json" \
        --html "$T_DIR/npu.html"
    check "NPU captures: NPU 0, and an NPU's utilization counts HCCL waits" \
        sh -c "grep -q '>NPU 0<' '$T_DIR/npu.html' &&
            grep -q \"Utilization per device (share of each capture; an NPU&#39;s counts HCCL waits as busy)\" '$T_DIR/npu.html' &&
            ! grep -q '>GPU 0<' '$T_DIR/npu.html'"
else
    skip "NPU captures" "no python3"
fi

# stepped nights keep their step words and charts
"$PR_BIN" trend -q --input "$D/base.json" "$D/rerun.json" "$D/slow.json" \
    --html "$T_DIR/s.html" --markdown "$T_DIR/s.md" --json "$T_DIR/s.json"
check "stepped nights: Step time chart, Mean step and p90 columns" \
    sh -c "grep -q '>Step time<' '$T_DIR/s.html' &&
        grep -q '| # | Input | Mean step | p90 | Memory peak |' '$T_DIR/s.md' &&
        grep -q '>Breakdown (mean step)<' '$T_DIR/s.html' &&
        ! grep -q 'Utilization per device\|Capture (no steps)' '$T_DIR/s.html'"
check "  and no_steps is false" grep -q '"no_steps":[[:space:]]*false' \
    "$T_DIR/s.json"

# real: nsys mfu_2gpu before/after (fixed 300 ms windows)
if have_shared && command -v python3 > /dev/null 2>&1 &&
    shared_summary before nsys/mfu_2gpu_before.sqlite &&
    shared_summary after nsys/mfu_2gpu_after.sqlite; then
    "$PR_BIN" trend -q --keep-order "$T_DIR/before.json" "$T_DIR/after.json" \
        "$T_DIR/before.json" --html "$T_DIR/r.html" --json "$T_DIR/r.json" \
        --markdown "$T_DIR/r.md"
    check "nsys before/after/before: no step words in the HTML or Markdown" \
        sh -c "! grep -q 'Step time\|Mean step\|per step\|mean step' '$T_DIR/r.html' &&
            ! grep -q 'Mean step\|p90' '$T_DIR/r.md'"
    check "  GPU 0 and GPU 1 utilization charted: 90.3% -> 79.4% -> 90.3% on GPU 0" \
        python3 -c "
import json
t = json.load(open('$T_DIR/r.json'))
u = [round(n['utilization_pct']['GPU 0'], 1) for n in t['nights']]
assert u == [90.3, 79.4, 90.3], u
assert all(set(n['utilization_pct']) == {'GPU 0', 'GPU 1'} for n in t['nights'])
assert t['no_steps'] is True
"
    check "  the flash kernel's time per call (about 4.0 ms) is charted" \
        python3 -c "
import json
t = json.load(open('$T_DIR/r.json'))
f = [k for k in t['top_kernels'] if 'flash_fwd_kernel' in k]
assert f, t['top_kernels']
v = [n['kernels_us_per_call'][f[0]] for n in t['nights']]
assert all(3900 < x < 4100 for x in v), v
"
else
    skip "nsys before/after trend" "no ../shared nsys samples"
fi
echo "1..$T_N"
