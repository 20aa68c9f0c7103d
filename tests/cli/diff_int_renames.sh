#!/bin/sh
# diff_int_renames.sh - review 28g #8: a kernel whose name differs between
# the runs only in integer template arguments (fbgemm's TBE kernels at
# another kMaxVecsPerThread, <float, float, float, 2ul> -> <..., 5ul>) is
# one kernel that changed, not a vanished and a new one.
#
# Two hand-made runs of four steps, one call of each kernel a step:
#  tbe_kernel<float, 2ul> 150 us in the baseline, tbe_kernel<float, 5ul>
#    250 us in the current run: one row "tbe_kernel<…, 2ul> -> <…, 5ul>",
#    +100 us (+66.7%), in Top regressions, with both full names; neither
#    in New and vanished.
#  amb<1> and amb<2> (baseline) against amb<3> (current): two vanished
#    kernels share the name without integers, so no pair: they stay
#    vanished and new.
#  keep<float, 4> in both, unchanged.
# And the HTA trace_diff pair: the TBE backward +66%, forward +77%.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "kernels renamed by an integer" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" << 'PY'
import json, sys
d = sys.argv[1]
A100 = [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "computeMajor": 8,
         "computeMinor": 0, "numSms": 108, "totalGlobalMem": 85097971712}]

def run(kernels):
    ev, ts, c = [], 1000000, 1
    for s in range(4):
        ev.append({"ph": "X", "cat": "user_annotation",
                   "name": "ProfilerStep#%d" % (s + 1), "pid": 1, "tid": 1,
                   "ts": ts, "dur": 3000, "args": {}})
        for name, dur in kernels:
            ev.append({"ph": "X", "cat": "cpu_op", "name": "op", "pid": 1,
                       "tid": 1, "ts": ts + 10, "dur": 50,
                       "args": {"External id": c}})
            ev.append({"ph": "X", "cat": "cuda_runtime",
                       "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                       "ts": ts + 20, "dur": 10,
                       "args": {"correlation": c, "External id": c}})
            ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0,
                       "tid": 7, "ts": ts + 100, "dur": dur,
                       "args": {"correlation": c, "device": 0, "stream": 7,
                                "External id": c}})
            ts += 400
            c += 1
        ts += 1200
    return {"schemaVersion": 1, "deviceProperties": A100, "traceEvents": ev}

TBE = "void tbe_kernel<float, %s>(at::GenericPackedTensorAccessor<float, 2ul>, int)"
base = [(TBE % "2ul", 150), ("void amb<1>(int)", 50), ("void amb<2>(int)", 50),
        ("void keep<float, 4>(int)", 100)]
cur = [(TBE % "5ul", 250), ("void amb<3>(int)", 60),
       ("void keep<float, 4>(int)", 100)]
json.dump(run(base), open("%s/a.pt.trace.json" % d, "w"))
json.dump(run(cur), open("%s/b.pt.trace.json" % d, "w"))
PY

"$PR_BIN" diff -q "$T_DIR/a.pt.trace.json" "$T_DIR/b.pt.trace.json" \
    --json "$T_DIR/d.json" > /dev/null 2> "$T_DIR/d.err"
check "diff written" [ -s "$T_DIR/d.json" ]
"$PR_BIN" diff -q "$T_DIR/a.pt.trace.json" "$T_DIR/b.pt.trace.json" \
    > "$T_DIR/d.txt" 2> /dev/null

check "one row for the TBE kernel, 150 -> 250 us a call (+66.7%), both names kept" \
    python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
k = [r for r in d['kernels'] if 'tbe_kernel' in r['name']]
assert len(k) == 1, k
r = k[0]
assert r['name'] == 'tbe_kernel<…, 2ul> -> <…, 5ul>', r
assert r['status'] == 'both' and r['baseline_us'] > 0 and \
    abs(r['current_us'] / r['baseline_us'] - 250 / 150) < 1e-9 and \
    abs(r['delta_pct'] - 66.667) < 0.01, r
assert r['baseline_name'].startswith('void tbe_kernel<float, 2ul>('), r
assert r['current_name'].startswith('void tbe_kernel<float, 5ul>('), r
ad = d['added_deleted']['kernels']
names = [x['name'] for x in ad['added'] + ad['deleted']]
assert not any('tbe_kernel' in n for n in names), names
" "$T_DIR/d.json"
check "two vanished amb<> against one new: no pair" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
st = {r['name']: r['status'] for r in d['kernels'] if 'amb<' in r['name']}
assert st == {'void amb<1>(int)': 'vanished', 'void amb<2>(int)': 'vanished',
              'void amb<3>(int)': 'new'}, st
" "$T_DIR/d.json"
check "the terminal's Top regressions: kernels lists the pair" sh -c "
    sed -n '/^Top regressions: kernels/,/^Top improvements: kernels/p' '$T_DIR/d.txt' |
        grep -q 'tbe_kernel<…, 2ul> -> <…, 5ul> .*+66.7%'"

if have_shared && [ -e "$PR_SHARED/traces/hta/trace_diff/control/control.json.gz" ]; then
    "$PR_BIN" diff -q -b "$PR_SHARED/traces/hta/trace_diff/control/control.json.gz" \
        -i "$PR_SHARED/traces/hta/trace_diff/test/test.json.gz" \
        --json "$T_DIR/hta.json" > /dev/null 2>&1
    check "HTA trace_diff: the TBE kernels paired, +66% and +77%" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
k = {r['name']: r for r in d['kernels']}
b = k['split_embedding_backwar…ted_kernel_cta_per_row_1<…, 2ul> -> <…, 5ul>']
f = k['split_embedding_codegen…orward_unweighted_kernel<…, 2ul> -> <…, 5ul>']
assert round(b['delta_pct']) == 66 and round(f['delta_pct']) == 77, (b, f)
assert b['baseline_us'] == 6030, b
" "$T_DIR/hta.json"
else
    skip "HTA trace_diff: the TBE kernels paired" "no shared traces"
fi

echo "1..$T_N"
