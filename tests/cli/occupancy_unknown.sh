#!/bin/sh
# occupancy_unknown.sh - Kineto writes "est. achieved occupancy %" 0 for a
# kernel with more than 48 KiB of shared memory though its blocks run (the
# occupancy is not computed; review25g #1): such a launch is unknown, not
# 0%.  A trace made here: kernel A {blocks per SM 8, shared memory 98304,
# occupancy 0} and kernel B {blocks per SM 8, occupancy 50}, same time:
# the card counts A at the 0 the trace writes, as the PyTorch plugin does
# (25%), and says it is a lower bound (review 27 #1: leaving such kernels
# out raised hta_nccl's card from 35.3% to 68.1%, where the trace allows at
# most 37.9%); A's row in the Kernels table is a dash with source
# trace_missing.  A trace of A alone: the card is not known.  Then hta's call_stack sample (its one kernel is
# such a GEMM) when ../shared is there.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "occupancy_unknown" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
def trace(path, kernels):
    ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
           "pid": 1, "tid": 1, "ts": 0, "dur": 400, "args": {}}]
    for i, (name, smem, occ) in enumerate(kernels):
        ext = i + 1
        ev.append({"ph": "X", "cat": "cuda_runtime",
                   "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                   "ts": 10 + i * 100, "dur": 2,
                   "args": {"External id": ext, "correlation": ext}})
        ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0,
                   "tid": 7, "ts": 20 + i * 100, "dur": 80,
                   "args": {"External id": ext, "correlation": ext,
                            "device": 0, "stream": 7, "grid": [864, 1, 1],
                            "block": [128, 1, 1],
                            "registers per thread": 64,
                            "shared memory": smem, "blocks per SM": 8,
                            "est. achieved occupancy %": occ}})
    json.dump({"deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-40GB",
                                     "computeMajor": 8, "computeMinor": 0,
                                     "numSms": 108}],
               "traceEvents": ev}, open(path, "w"))
trace(sys.argv[1] + "/two.json",
      [("kernel_big_smem", 98304, 0), ("kernel_small", 0, 50)])
trace(sys.argv[1] + "/one.json", [("kernel_big_smem", 98304, 0)])
trace(sys.argv[1] + "/small.json", [("kernel_small", 0, 40), ("kernel_small", 0, 40)])
PY

"$PR_BIN" -q --input "$T_DIR/two.json" --json "$T_DIR/two.out.json" \
    --html "$T_DIR/two.html"
check "card 25%, the unknown launch counted at its 0 and named" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
g = r['gpu_metrics'][0]
assert abs(g['est_achieved_occupancy_pct'] - 25) < 1e-9, g
assert g['occupancy_unknown_launches'] == 1, g
assert abs(g['occupancy_unknown_kernel_pct'] - 50) < 1e-9, g
k = {x['name']: x for x in r['kernels']}
assert k['kernel_big_smem']['mean_est_achieved_occupancy_pct'] is None, k
assert k['kernel_big_smem']['occupancy_source'] == 'trace_missing', k
assert k['kernel_small']['mean_est_achieved_occupancy_pct'] == 50, k
assert k['kernel_small']['occupancy_source'] == 'trace', k
" "$T_DIR/two.out.json"
check "HTML: the card says it is a lower bound" \
    grep -q "at least: 1 launch (50.0% of kernel time) count as the trace" \
    "$T_DIR/two.html"
"$PR_BIN" table -q --input "$T_DIR/two.out.json" --kind kernels \
    -c name,occupancy > "$T_DIR/k.txt"
check "Kernels table: a dash, not 0.0%" \
    sh -c "grep 'kernel_big_smem' '$T_DIR/k.txt' | grep -q ' [-–]\$' &&
           ! grep 'kernel_big_smem' '$T_DIR/k.txt' | grep -q '0.0%'"

"$PR_BIN" -q --input "$T_DIR/one.json" --json "$T_DIR/one.out.json" \
    --html "$T_DIR/one.html"
check "no occupancy at all: null, not 0" python3 -c "
import json, sys
g = json.load(open(sys.argv[1]))['runs'][0]['gpu_metrics'][0]
assert g['est_achieved_occupancy_pct'] is None, g
" "$T_DIR/one.out.json"
check "HTML: the card says not known" \
    grep -q 'not known: the trace gives no occupancy for its 1 kernel launch' \
    "$T_DIR/one.html"
# no figure, so no lower-bound words under it (review 28g #5: the note
# said the figure 'counts 1 launch at the 0' beside a dash)
check "HTML: no lower-bound note where there is no figure" \
    sh -c '! grep -q "so the figure is a lower bound" "$1" &&
        grep -q "Est. achieved occupancy is not known: the trace gives no occupancy for its 1 kernel launch" "$1"' \
    _ "$T_DIR/one.html"

if have_shared; then
    shared_summary cs hta/call_stack/backward_thread.json
    check "hta call_stack: occupancy not known (a 96 KiB cutlass GEMM)" \
        python3 -c "
import json, sys
g = json.load(open(sys.argv[1]))['runs'][0]['gpu_metrics'][0]
assert g['est_achieved_occupancy_pct'] is None, g
assert g['occupancy_unknown_launches'] == 1, g
" "$T_DIR/cs.json"
    shared_summary ax hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz
    check "alexnet: 38.4%, the plugin's figure, the 6 launches (17.0%) of no occupancy named" \
        python3 -c "
import json, sys
g = json.load(open(sys.argv[1]))['runs'][0]['gpu_metrics'][0]
assert round(g['est_achieved_occupancy_pct'], 1) == 38.4, g
assert g['occupancy_unknown_launches'] == 6, g
assert round(g['occupancy_unknown_kernel_pct'], 1) == 17.0, g
" "$T_DIR/ax.json"
else
    skip "hta call_stack occupancy" "no $PR_SHARED/traces"
fi
# the diff: a mean occupancy that leaves out 50% of the kernel time
# (two.json) against one that leaves out none (small.json) is over other
# kernels: the gpu.occupancy row is not compared, and says why; two runs
# that leave out nothing compare it
"$PR_BIN" diff -q "$T_DIR/small.json" "$T_DIR/two.json" \
    --json "$T_DIR/d1.json" > /dev/null 2>&1
COLUMNS=250 "$PR_BIN" diff "$T_DIR/small.json" "$T_DIR/two.json" \
    > "$T_DIR/d1.txt" 2> /dev/null
"$PR_BIN" diff -q "$T_DIR/small.json" "$T_DIR/small.json" \
    --json "$T_DIR/d2.json" > /dev/null 2>&1
check "diff: occupancy with 50% of kernel time unknown is not compared" \
    python3 -c "
import json, sys
def occ(p):
    return [x for x in json.load(open(p))['runs'][0]['metrics']
            if x['metric'] == 'gpu.occupancy'][0]
m = occ(sys.argv[1])
assert m['comparable'] is False, m
assert 'leave out 0% (baseline) and 50% (current)' in m['not_comparable'], m
assert occ(sys.argv[2]).get('comparable') is not False, occ(sys.argv[2])
" "$T_DIR/d1.json" "$T_DIR/d2.json"
# review 27 #6: the reason in the cell widened the table past a terminal,
# a PDF cell and a 1300 px page; a mark in the cell and on the figure, the
# reason (which side, how much) under the table
check "  the terminal row says so, marked (a) in the figure and the cell" \
    grep -Eq '^gpu\.occupancy GPU 0 \(a\) .*not compared \(a\)' "$T_DIR/d1.txt"
check "  the note names the side and its share" \
    grep -q "^(a) occupancy not known for 50.0% of the current's kernel time, none of the baseline's: kernels over 48 KiB of shared memory" \
    "$T_DIR/d1.txt"
COLUMNS=80 "$PR_BIN" diff "$T_DIR/small.json" "$T_DIR/two.json" \
    > "$T_DIR/d80.txt" 2> /dev/null
check "  at 80 columns the figure keeps its mark and the note is wrapped" \
    sh -c "grep -Eq '^gpu\.occupancy GPU 0 \(a\) ' '$T_DIR/d80.txt' &&
           ! awk 'length > 80' '$T_DIR/d80.txt' | grep -q '^(a)'"
"$PR_BIN" diff -q "$T_DIR/small.json" "$T_DIR/two.json" \
    --markdown "$T_DIR/d1.md" --html "$T_DIR/d1.html" > /dev/null 2>&1
check "  Markdown and HTML: the short cell and the note" \
    sh -c "grep -q '| not compared (a) |' '$T_DIR/d1.md' &&
           grep -q '(a) occupancy not known for 50.0%' '$T_DIR/d1.md' &&
           grep -q '(a) occupancy not known for 50.0%' '$T_DIR/d1.html' &&
           ! grep -q 'not compared (occupancy' '$T_DIR/d1.html'"
echo "1..$T_N"
