#!/bin/sh
# kernel_replay.sh - review30g #3: a CUPTI range-profiler capture gives
# every kernel one cuda_profiler_range of one made-up length (HTA's
# cupti_profiler sample: 77 ranges of 121,431 us).  The times made of
# those lengths are not shown as the run's: the capture breakdown's parts,
# the device's busy and idle time (Host and device), the operators'
# device times, the attribution's times and `table --kind kernel-calls`'
# Start and Duration are null or "-", each saying why once; the counts
# stay.  A trace with the same launches as kernels keeps its times.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "kernel replay" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
def trace(path, cat, dur):
    ev = []
    for i, (op, k) in enumerate((("aten::mm", "ampere_sgemm_64x64_nn"),
                                 ("aten::add_", "elementwise_kernel<128, 2>"),
                                 ("aten::mm", "ampere_sgemm_64x64_nn"))):
        ts, c = 10 + 200 * i, 77 + i
        ev.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": 9,
                   "tid": 9, "ts": ts, "dur": 100,
                   "args": {"External id": i + 1}})
        ev.append({"ph": "X", "cat": "cuda_runtime",
                   "name": "cudaLaunchKernel", "pid": 9, "tid": 9,
                   "ts": ts + 10, "dur": 5,
                   "args": {"External id": c, "correlation": c}})
        a = {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 1000}
        if cat == "kernel":
            a = {"External id": c, "correlation": c, "device": 0,
                 "stream": 7}
        ev.append({"ph": "X", "cat": cat, "name": k, "pid": 0, "tid": 0,
                   "ts": 1000 + dur * i, "dur": dur, "args": a})
    json.dump({"schemaVersion": 1,
               "deviceProperties": [{"id": 0, "name": "NVIDIA A100-PG509-200",
                                     "computeMajor": 8, "computeMinor": 0,
                                     "numSms": 108}],
               "traceEvents": ev}, open(path, "w"))
trace(sys.argv[1] + "/replay.json", "cuda_profiler_range", 121431)
trace(sys.argv[1] + "/timed.json", "kernel", 300)
PY

for c in replay timed; do
    "$PR_BIN" -q --input "$T_DIR/$c.json" --json "$T_DIR/$c.out.json" \
        --html "$T_DIR/$c.html" 2> "$T_DIR/$c.err"
    "$PR_BIN" table --input "$T_DIR/$c.json" --kind kernel-calls \
        > "$T_DIR/$c.calls" 2> "$T_DIR/$c.calls.err"
done
check "replay: no breakdown, device time or operator time from the ranges" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['data_quality']['replayed_kernels'] == 3, r['data_quality']
for b in [r['step_summary']['breakdown_us']] + [s['breakdown_us'] for s in r['steps']]:
    assert all(v is None for v in b.values()), b
t = r['temporal_breakdown'][0]
assert t['compute_us'] is None and t['idle_us'] is None, t
assert t['compute_pct'] is None and t['idle_pct'] is None, t
assert 'kernel replay' in t['note'] and 'made-up length' in t['note'], t
for o in r['operators']:
    assert o['device_self_us'] is None and o['device_total_us'] is None, o
mm = [o for o in r['operators'] if o['name'] == 'aten::mm'][0]
assert mm['calls'] == 2, mm
a = r['attribution']
assert a['kernel_time_us'] is None and a['operator_time_us'] is None, a
assert a['operator_pct'] is None and a['kernels'] == 3, a
assert 'Kernel replay' in a['reason'], a
" "$T_DIR/replay.out.json"
check "  the HTML says why, and draws no compute/idle or 121 ms parts" \
    python3 -c "
import html, re, sys
t = re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ',
    open(sys.argv[1]).read().replace('<wbr>', ''))))
assert 'No split of the time: the kernels were measured by CUPTI' in t, t
assert t.count('every kernel\'s range has one made-up length, not its time, so the device') == 1, t
assert 'where its' not in t, t
assert 'kernel time not known' in t and '0 of 0' not in t, t
assert '364 ms of 364 ms' not in t, t
" "$T_DIR/replay.html"
check "  kernel-calls: Start and Duration '-', the why on stderr" python3 -c "
import sys
rows = open(sys.argv[1]).read().splitlines()[1:]
assert len(rows) == 3, rows
for r in rows:
    assert ' - ' in r and '121 ms' not in r, r
e = open(sys.argv[2]).read()
assert 'range profiler' in e and 'not known' in e, e
" "$T_DIR/replay.calls" "$T_DIR/replay.calls.err"
check "replay: kernel_classes keep counts, their times and shares null" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
kc = r['kernel_classes']
for part in ('by_family', 'by_math'):
    assert kc[part], kc
    for row in kc[part]:
        assert row['total_us'] is None and row['time_pct'] is None, row
        assert row['kernels'] > 0, row
assert sum(x['kernels'] for x in kc['by_math']) == 2, kc
for f in r['verdict'].get('findings') or []:
    assert 'first-use' not in f['title'], f
" "$T_DIR/replay.out.json"
check "  the HTML says the family time is not known" python3 -c "
import html, re, sys
t = re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ',
    open(sys.argv[1]).read().replace('<wbr>', ''))))
assert 'time not known (kernel replay)' in t, t
assert 'Kernel time by family' not in t.replace('Kernel time by family: time not known', ''), t
" "$T_DIR/replay.html"
# a replayed launch that holds the host 150 ms: the replay's stall, not
# a cold start (review31 #5: cupti_range's only finding read "A cold
# capture: first-use costs")
python3 - "$T_DIR" << 'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/replay.json"))
for e in d["traceEvents"]:
    if e["name"] == "cudaLaunchKernel" and e["args"]["correlation"] == 78:
        e["dur"] = 150000
    if e["name"] == "aten::add_":
        e["dur"] = 150100
for e in d["traceEvents"]:
    if e.get("pid") == 9 and e["ts"] >= 410:
        e["ts"] += 150000
json.dump(d, open(sys.argv[1] + "/stall.json", "w"))
PY
"$PR_BIN" -q --input "$T_DIR/stall.json" --json "$T_DIR/stall.out.json" \
    --html "$T_DIR/stall.html" 2> "$T_DIR/stall.err"
check "replay: a 150 ms launch is the replay's stall, not first use" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
t = [f['title'] for f in r['verdict']['findings']]
assert 'Kernel replay: host stalls while CUPTI replays kernels' in t, t
assert not [x for x in t if 'cold' in x or 'first-use' in x], t
o = [x['text'] for x in r['observations'] if x['id'] == 'cold_step']
assert o and o[0].startswith('The capture stalls under kernel replay'), o
assert 'loads its code' not in o[0], o
h = open(sys.argv[2]).read()
assert 'first-use' not in h and 'is cold' not in h, 'html'
" "$T_DIR/stall.out.json" "$T_DIR/stall.html"
# review31 #1: a summary written with --json is an input too
"$PR_BIN" table --kind kernels --input "$T_DIR/replay.out.json" \
    > "$T_DIR/rt.kernels" 2> "$T_DIR/rt.kernels.err"
rc=$?
check "replay summary read back: table --kind kernels" test "$rc" -eq 0
"$PR_BIN" -q --input "$T_DIR/replay.out.json" --html "$T_DIR/rt.html" \
    2> "$T_DIR/rt.err"
rc=$?
check "  and --input s.json --html" test "$rc" -eq 0
check "  the re-rendered HTML says the same" grep -q \
    "time not known (kernel replay)" "$T_DIR/rt.html"
check "timed kernels keep their times" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['step_summary']['breakdown_us']['kernel'] == 900, r['step_summary']
assert r['temporal_breakdown'][0]['compute_us'] == 900, r['temporal_breakdown']
mm = [o for o in r['operators'] if o['name'] == 'aten::mm'][0]
assert mm['device_self_us'] == 600, mm
assert r['attribution']['kernel_time_us'] == 900, r['attribution']
assert all(x['total_us'] > 0 for x in r['kernel_classes']['by_family']), r
assert '300 \u00b5s' in open(sys.argv[2]).read(), open(sys.argv[2]).read()
" "$T_DIR/timed.out.json" "$T_DIR/timed.calls"
# its saved summary reads back (review 31 #1: "attribution.kernel_time_us:
# expected a number, got null" refused the file for table, diff and trend)
for k in kernels operators findings steps; do
    "$PR_BIN" table --kind "$k" --input "$T_DIR/replay.out.json" > /dev/null \
        2> "$T_DIR/rt.err"
    check "the replay's saved summary: table --kind $k reads it" [ $? -eq 0 ]
done
"$PR_BIN" -q --input "$T_DIR/replay.out.json" --json "$T_DIR/again.json" \
    --html "$T_DIR/again.html" 2> "$T_DIR/rt.err"
check "the replay's saved summary re-renders, its nulls kept" python3 -c "
import json, sys
a = json.load(open(sys.argv[1]))['runs'][0]['attribution']
assert a['kernel_time_us'] is None and a['operator_time_us'] is None, a
" "$T_DIR/again.json"
# review 31 #5: the unknown kernels' and cuDNN's layout transforms' times
# are range lengths under replay too: null, counts kept; timed, kept
python3 - "$T_DIR" << 'PY'
import json, sys
for name, cat, dur in (("replay2", "cuda_profiler_range", 121431),
                       ("timed2", "kernel", 300)):
    ev = []
    for i, k in enumerate(("my_custom_kernel",
                           "void cudnn::ops::nchwToNhwcKernel<float>()")):
        ts, c = 10 + 200 * i, 90 + i
        ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::conv2d",
                   "pid": 9, "tid": 9, "ts": ts, "dur": 100,
                   "args": {"External id": i + 1}})
        ev.append({"ph": "X", "cat": "cuda_runtime",
                   "name": "cudaLaunchKernel", "pid": 9, "tid": 9,
                   "ts": ts + 10, "dur": 5,
                   "args": {"External id": c, "correlation": c}})
        a = {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 1000}
        if cat == "kernel":
            a = {"External id": c, "correlation": c, "device": 0,
                 "stream": 7}
        ev.append({"ph": "X", "cat": cat, "name": k, "pid": 0, "tid": 0,
                   "ts": 1000 + dur * i, "dur": dur, "args": a})
    json.dump({"schemaVersion": 1, "traceEvents": ev},
              open("%s/%s.json" % (sys.argv[1], name), "w"))
PY
for c in replay2 timed2; do
    "$PR_BIN" -q --input "$T_DIR/$c.json" --json "$T_DIR/$c.out.json" \
        2> "$T_DIR/$c.err"
done
check "replay: unknown kernels and layout transforms: counts, no times" \
    python3 -c "
import json, sys
kc = json.load(open(sys.argv[1]))['runs'][0]['kernel_classes']
u, l = kc['unknown'], kc['layout_transforms']
assert u['kernels'] == 1 and u['total_us'] is None and u['time_pct'] is None, u
assert all(x['total_us'] is None for x in u['top']), u
assert l['kernels'] == 1 and l['calls'] == 1, l
assert l['total_us'] is None and l['conv_us'] is None and l['time_pct'] is None, l
kc = json.load(open(sys.argv[2]))['runs'][0]['kernel_classes']
u, l = kc['unknown'], kc['layout_transforms']
assert u['total_us'] == 300 and l['total_us'] == 300, kc
" "$T_DIR/replay2.out.json" "$T_DIR/timed2.out.json"
"$PR_BIN" table -q --input "$T_DIR/replay2.out.json" --kind kernels \
    > /dev/null 2>&1
check "  its saved summary reads back" [ $? -eq 0 ]
echo "1..$T_N"
