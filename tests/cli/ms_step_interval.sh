#!/bin/sh
# ms_step_interval.sh - MindSpore's legacy Ascend folder (ascleft2):
#
# 1. The step trace's iteration_interval (the wait between steps: the
#    data queue, GetNext, the host; MindInsight's "Step Interval") is the
#    step breakdown's dataloader part, which a MindSpore report calls
#    "Step interval"; before, it was "Other" (ms_fixtures: 90.4 ms of a
#    130.5 ms step).  Only the interval's time no task covers, and only
#    from "other".  The step_interval finding stays the one that judges
#    it: no DataLoader advice ("Input loading on the critical path").
# 2. framework_raw of another run than the timeline (ms_run1: a LeNet5's
#    framework_raw beside a WideDeep's timeline): a Data quality row,
#    framework_other_run, naming an operator of each; none where the
#    names agree.
#
# tests/data/mindspore/step_interval: three 10 ms steps, each 6 ms of
# interval, 3 ms FP+BP, 1 ms tail, a 2 ms Conv2D task at 6.2 ms of each.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "MindSpore's step interval" "no python3"
    echo "1..$T_N"
    exit 0
fi

D=$PR_SRCDIR/tests/data/mindspore/step_interval

# ---- 1. the interval in the step breakdown
"$PR_BIN" -q -i "$D" --json "$T_DIR/si.json" --html "$T_DIR/si.html" \
    > "$T_DIR/si.term" 2> "$T_DIR/si.err"
check "step interval: exit 0" test $? -eq 0
check "step interval: each step's 6 ms interval is its dataloader part, the rest other" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
for s in r['steps']:
    b = s['breakdown_us']
    assert (b['kernel'], b['dataloader'], b['other']) == (2000, 6000, 2000), (s['name'], b)
assert r['step_summary']['breakdown_us']['dataloader'] == 6000, r['step_summary']
ids = [x['id'] for x in r['recommendations'] + r.get('observations', [])]
assert 'step_interval' in ids and 'dataloader' not in ids, ids
assert 'dataloader' not in [x['id'] for x in r['verdict']['findings']], r['verdict']['findings']
" "$T_DIR/si.json"
check "step interval: the HTML step chart says Step interval, never DataLoader" \
    python3 -c "
import re, sys
h = re.sub(r'\s+', ' ', re.sub(r'<[^>]+>', ' ', open(sys.argv[1]).read().replace('<wbr>', '')))
assert 'Step 1 · Step interval: 6.00 ms (60.0%)' in h, h[h.find('Step time breakdown'):][:400]
assert 'DataLoader' not in h and 'Input loading' not in h
" "$T_DIR/si.html"

# a task inside the interval keeps its time: 1 ms at 1 ms into step 2
mkdir -p "$T_DIR/in"
cp "$D"/step_trace_raw_0_detail_time.csv "$D"/min_cycle_counter_0.txt \
    "$T_DIR/in/"
python3 - "$D/ascend_timeline_display_0.json" \
    "$T_DIR/in/ascend_timeline_display_0.json" << 'PY'
import json, sys
ev = json.load(open(sys.argv[1]))
ev.insert(1, {"name": "Mul-op1", "ph": "X", "tid": "5", "ts": 11000.0,
              "dur": 1000.0, "pid": 1,
              "args": {"type": "Mul", "fullname": "Default/network/Mul-op1"}})
json.dump(ev, open(sys.argv[2], "w"))
PY
"$PR_BIN" -q -i "$T_DIR/in" --json "$T_DIR/in.json" 2> "$T_DIR/in.err"
check "a task in the interval: its 1 ms stays task time, the interval 5 ms" \
    python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))['runs'][0]['steps']
b = s[1]['breakdown_us']
assert (b['kernel'], b['dataloader'], b['other']) == (3000, 5000, 2000), b
assert s[0]['breakdown_us']['dataloader'] == 6000, s[0]
" "$T_DIR/in.json"

# a data-queue task inside the step (sink mode): 1 ms of interval, then
# GetNext 3 ms of each 10 ms step: the dataloader finding still fires on
# the share above the interval (40% - 10%), with the breakdown's 4 ms
mkdir -p "$T_DIR/gn"
cp "$D"/min_cycle_counter_0.txt "$T_DIR/gn/"
python3 - "$T_DIR/gn" << 'PY'
import json, sys
d = sys.argv[1]
with open(d + "/step_trace_raw_0_detail_time.csv", "w") as f:
    f.write("step_num,start_point,end_point,total,fp_point,bp_point,"
            "iteration_interval,fp_and_bp,tail\n")
    for k in range(3):
        a = 100000000 + k * 1000000
        f.write("%d,%d,%d,1000000,%d,%d,100000,800000,100000\n"
                % (k + 1, a, a + 1000000, a + 100000, a + 900000))
ev = []
for k in range(3):
    ev.append({"name": "GetNext-op1", "ph": "X", "tid": "5",
               "ts": k * 10000.0 + 1000.0, "dur": 3000.0, "pid": 1,
               "args": {"type": "GetNext", "fullname": "Default/GetNext-op1"}})
    ev.append({"name": "Conv2D-op5", "ph": "X", "tid": "5",
               "ts": k * 10000.0 + 6200.0, "dur": 2000.0, "pid": 1,
               "args": {"type": "Conv2D",
                        "fullname": "Default/network/Conv2D-op5"}})
json.dump(ev, open(d + "/ascend_timeline_display_0.json", "w"))
PY
"$PR_BIN" -q -i "$T_DIR/gn" --json "$T_DIR/gn.json" 2> "$T_DIR/gn.err"
check "GetNext in the step: the dataloader finding fires on the share above the interval" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
b = r['steps'][1]['breakdown_us']
assert (b['dataloader'], b['kernel']) == (4000, 2000), b
t = [x['text'] for x in r['recommendations'] + r.get('observations', [])
     if x['id'] == 'dataloader']
assert len(t) == 1 and '30.0% of the step time' in t[0], t
" "$T_DIR/gn.json"

# the shared samples: ms_fixtures' rank 0 (no task inside its steps) has
# its step trace's interval as the steps' Step interval, step by step
if shared_summary fx mindspore/fixtures; then
    check "ms_fixtures: each step's Step interval is its step_trace_raw iteration_interval" \
        python3 -c "
import csv, json, sys
r = [x for x in json.load(open(sys.argv[1]))['runs'] if x['worker'] == 'rank0'][0]
rows = {int(x['step_num']): x for x in csv.DictReader(open(sys.argv[2])) if x['step_num'].isdigit()}
assert len(r['steps']) == 20
for s in r['steps']:
    n = int(s['name'].split()[-1])
    want = int(rows[n]['iteration_interval']) / 100.0  # 10 ns ticks
    assert abs(s['breakdown_us']['dataloader'] - want) < 0.01, (n, s['breakdown_us'], want)
ids = [x['id'] for x in r['recommendations'] + r.get('observations', [])]
assert 'step_interval' in ids and 'dataloader' not in ids, ids
" "$T_DIR/fx.json" "$PR_SHARED/traces/mindspore/fixtures/step_trace_raw_0_detail_time.csv"
else
    skip "ms_fixtures' step interval" "no $PR_SHARED/traces"
fi

# ---- 2. framework_raw of another run
# mk DIR FW_PREFIX: twelve tasks of Default/network-A/Op<i>-op<i>; a
# framework_raw naming FW_PREFIX/Op<i>-op<i>
mk() {
    mkdir -p "$1"
    python3 - "$1" "$2" << 'PY'
import sys
d, fw = sys.argv[1], sys.argv[2]
with open(d + "/output_timeline_data_1.txt", "w") as f:
    f.write("op_name, stream_id, start_time(ms), duration(ms)\n")
    for i in range(12):
        f.write("Default/network-A/Op%d-op%d,519,%.5f,0.01\n" % (i, i, 1000 + 0.02 * i))
with open(d + "/framework_raw_1.csv", "w") as f:
    f.write("task_id,stream_id,block_dim,full_op_name,op_name,op_type,subgraph,op_info\n")
    for i in range(12):
        f.write('%d,519,1,%s/Op%d-op%d,Op%d-op%d,Op%d,Default,"{}"\n'
                % (i, fw, i, i, i, i, i))
PY
}
mk "$T_DIR/other" "Default/network-LeNet5"
"$PR_BIN" -q -i "$T_DIR/other" --json "$T_DIR/other.json" \
    --html "$T_DIR/other.html" 2> "$T_DIR/other.err"
check "framework_raw of another run: exit 0" test $? -eq 0
check "framework_raw of another run: a Data quality row names both" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
d = [x for x in r['diagnostics'] if x['kind'] == 'framework_other_run']
assert len(d) == 1 and d[0]['count'] == 12, d
t = d[0]['text']
for w in ('framework_raw_1.csv is of another run than the timeline',
          \"0 of the timeline's 12 operator tasks\", '0 of its 12 operators',
          'Default/network-LeNet5/Op', 'the timeline runs Default/network-A/Op',
          'the files of two runs', 'reach no task'):
    assert w in t, (w, t)
" "$T_DIR/other.json"
check "framework_raw of another run: the HTML's Data quality says so" \
    grep -q "is of another run than the timeline" "$T_DIR/other.html"
mk "$T_DIR/same" "Default/network-A"
"$PR_BIN" -q -i "$T_DIR/same" --json "$T_DIR/same.json" 2> "$T_DIR/same.err"
check "framework_raw of the same run: no such row" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert not [x for x in r['diagnostics'] if x['kind'] == 'framework_other_run'], r['diagnostics']
" "$T_DIR/same.json"

if shared_summary r1 mindspore/ascend_run1 &&
    shared_summary r2 mindspore/ascend_run2
then
    check "ms_run1: its framework_raw (LeNet5) is another run's; ms_run2's is its own" \
        python3 -c "
import json, sys
r1 = json.load(open(sys.argv[1]))['runs'][0]
d = [x for x in r1['diagnostics'] if x['kind'] == 'framework_other_run']
assert len(d) == 1 and d[0]['count'] == 80, d
assert 'LeNet5' in d[0]['text'] and \"0 of the timeline's 2817 operator tasks\" in d[0]['text'], d
r2 = json.load(open(sys.argv[2]))['runs'][0]
assert not [x for x in r2['diagnostics'] if x['kind'] == 'framework_other_run'], r2['diagnostics']
" "$T_DIR/r1.json" "$T_DIR/r2.json"
else
    skip "ms_run1 / ms_run2 framework_raw" "no $PR_SHARED/traces"
fi

echo "1..$T_N"
