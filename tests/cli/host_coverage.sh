#!/bin/sh
# host_coverage.sh - run.host_coverage (hostcov.c, issue #29): the share of
# a step's host time inside no recorded operator or runtime call, and the
# host events a sampled trace kept of those the profiler numbered (Ev
# Idx).  Hand-made traces whose answers are known, then HTA's sampled
# traces (../shared): the caveat in Data quality, the verdict and the
# host_ops finding, never "Python between operators" there.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "host coverage" "no python3"
    echo "1..$T_N"
    exit 0
fi

# mk FILE SAMPLED: a 100 ms step on thread 1; aten ops on thread 1 at
# [10, 20) and [30, 40) ms and on thread 2 at [35, 45) ms (the union:
# 25 ms, so 75% unrecorded); a "forward" range over [5, 60) that is no
# operator (25 of its 55 ms recorded under it: 30 ms, 55%, unrecorded);
# Ev Idx 0..N-1, or every 50th number when SAMPLED is 1.
mk() {
    python3 - "$1" "$2" << 'PY'
import json, sys
path, sampled = sys.argv[1], sys.argv[2] == "1"
ms = 1000.0
ev = []
def x(cat, name, tid, ts, dur, **args):
    ev.append({"ph": "X", "cat": cat, "name": name, "pid": 7, "tid": tid,
               "ts": ts * ms, "dur": dur * ms, "args": args})
x("user_annotation", "ProfilerStep#3", 1, 0, 100)
x("cpu_op", "forward", 1, 5, 55)
x("cpu_op", "aten::mm", 1, 10, 10, **{"Input Dims": [[4, 4], [4, 4]]})
x("cpu_op", "aten::add", 1, 30, 10)
x("cpu_op", "aten::mul", 2, 35, 10)
for i, e in enumerate(ev):
    e["args"]["Ev Idx"] = i * 50 if sampled else i
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(path, "w"))
PY
}

# field FILE EXPR: a Python expression over the first run (r) of a summary
field() {
    python3 - "$1" "$2" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
print(eval(sys.argv[2]))
PY
}

mk "$T_DIR/full.json" 0
mk "$T_DIR/sampled.json" 1
"$PR_BIN" -q --input "$T_DIR/full.json" --json "$T_DIR/full.s.json"
"$PR_BIN" -q --input "$T_DIR/sampled.json" --json "$T_DIR/sampled.s.json"
for f in full sampled; do
    p=$(field "$T_DIR/$f.s.json" "float(r['host_coverage']['unrecorded_pct'])")
    check "$f: 75% of the step's host time unrecorded (got $p)" \
        test "$p" = "75.0"
    u=$(field "$T_DIR/$f.s.json" "float(r['host_coverage']['unrecorded_us'])")
    check "$f: 75 ms a step (got $u us)" test "$u" = "75000.0"
done
k=$(field "$T_DIR/full.s.json" "float(r['host_coverage']['kept_events_pct'])")
check "every numbered event kept: 100% (got $k)" test "$k" = "100.0"
# 5 events numbered 0, 50, ..., 200: 5 of 201
k=$(field "$T_DIR/sampled.s.json" "round(r['host_coverage']['kept_events_pct'], 4)")
check "sampled: 5 of 201 numbered events kept (got $k)" \
    test "$k" = "$(python3 -c 'print(round(100 * 5 / 201, 4))')"
check "the note gives the share, the sample and the range" \
    test "$(field "$T_DIR/sampled.s.json" "all(w in r['host_coverage']['note'] for w in ('75% of a step', '5 of the 201 host events', 'forward (1 call): 30.0 ms of its 55.0 ms a call (55%)'))")" = True
check "the note is a Data quality row" \
    test "$(field "$T_DIR/sampled.s.json" "[d['kind'] for d in r['diagnostics']].count('host_unrecorded')")" = 1
check "the verdict carries the caveat" \
    test "$(field "$T_DIR/sampled.s.json" "'inside no recorded operator' in r['verdict']['text']")" = True

# below both thresholds: no note
python3 - "$T_DIR/low.json" << 'PY'
import json, sys
ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
       "pid": 7, "tid": 1, "ts": 0, "dur": 100000, "args": {"Ev Idx": 0}},
      {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 7, "tid": 1,
       "ts": 0, "dur": 60000, "args": {"Ev Idx": 1}}]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PR_BIN" -q --input "$T_DIR/low.json" --json "$T_DIR/low.s.json"
check "40% unrecorded, every event kept: no note" \
    test "$(field "$T_DIR/low.s.json" "r['host_coverage']['note']")" = None

if ! have_shared; then
    skip "HTA's sampled traces" "no ../shared/traces"
    echo "1..$T_N"
    exit 0
fi
S=$PR_SHARED/traces
if shared_summary tl hta/timeline_analysis; then
    # the kept share from the trace's own Ev Idx
    want=$(python3 - "$S/hta/timeline_analysis/sampled_rank-0.json.gz" << 'PY'
import gzip, json, sys
ev = json.load(gzip.open(sys.argv[1], "rt"))["traceEvents"]
i = [e["args"]["Ev Idx"] for e in ev if "Ev Idx" in e.get("args", {})]
print(round(100 * len(i) / (max(i) - min(i) + 1), 3))
PY
)
    k=$(field "$T_DIR/tl.json" "round(r['host_coverage']['kept_events_pct'], 3)")
    check "timeline_analysis: kept share from Ev Idx ($k = $want)" \
        test "$k" = "$want"
    check "timeline_analysis: most host time unrecorded" \
        test "$(field "$T_DIR/tl.json" "r['host_coverage']['unrecorded_pct'] > 50")" = True
    check "timeline_analysis: the backward window named" \
        test "$(field "$T_DIR/tl.json" "'## backward ## (2 calls): ' in r['host_coverage']['note']")" = True
    check "timeline_analysis: host_ops calls no time Python" \
        test "$(field "$T_DIR/tl.json" "[('Python between' not in x['text'] and 'inside no recorded operator' in x['text']) for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'host_ops']")" = "[True]"
else
    skip "timeline_analysis" "no hta/timeline_analysis"
fi
if shared_summary rn tb_plugin/resnet50_num_workers_0; then
    check "resnet50: a full eager trace gets no note" \
        test "$(field "$T_DIR/rn.json" "[x['host_coverage']['note'] for x in [r]][0]")" = None
else
    skip "resnet50" "no tb_plugin/resnet50_num_workers_0"
fi
# the host CPU card says what its numbers rest on (issue #29 item 4):
# MindSpore's sampler, its interval and samples, machine vs process
if shared_report ms2 mindspore/ascend_run2; then
    check "ascend_run2: the host CPU card says what it rests on" python3 -c "
import html, re, sys
t = re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ', open(sys.argv[1]).read().replace('<wbr>', ''))))
i = t.index('Host CPU (data pipeline)')
c = t[i:i + 2000]
for w in ('What these numbers rest on', 'every 100 ms', '3 samples',
          'over all of them', 'the whole machine', 'all of its threads'):
    assert w in c, w
" "$T_DIR/ms2.html"
else
    skip "ascend_run2 host CPU card" "no mindspore/ascend_run2"
fi
echo "1..$T_N"
