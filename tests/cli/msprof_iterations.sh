#!/bin/sh
# msprof_iterations.sh - issue #30 #3: msprof (CANN <= 6) exports the
# timeline of one iteration (msprof_{device}_{model}_{iteration}.json,
# --iteration-id, default 1) and the step trace of every iteration
# (step_trace_*.json).  The report's steps stay the iterations whose tasks
# the timeline holds (a step without its tasks would read as idle), and a
# data-quality note ("iterations_timed") gives the step trace's count and
# the other iterations' times, from the producer's Iteration Time.
# Before, the step trace beside msprof_*.json was skipped whole: the
# report of mindinsight_cann6_PROF showed one step and never said that
# the producer timed 10.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "msprof iterations" "no python3"
    echo "1..$T_N"
    exit 0
fi
TL=$T_DIR/PROF_000001_20230818142704322_AAAAAAAAAAAAAAAA/device_0/timeline
mkdir -p "$TL"
cat > "$TL/msprof_0_1_1.json" << 'EOF'
[
{"name": "process_name", "pid": 100, "tid": 0, "args": {"name": "Ascend Hardware"}, "ph": "M"},
{"name": "thread_name", "pid": 100, "tid": 2, "args": {"name": "Stream 2"}, "ph": "M"},
{"name": "process_name", "pid": 200, "tid": 0, "args": {"name": "Step Trace"}, "ph": "M"},
{"name": "Iteration 1", "pid": 200, "tid": 200, "ts": 1000.0, "dur": 40000.0, "args": {"Iteration ID": 1}, "cat": "Iteration Time", "ph": "X"},
{"name": "MatMul", "pid": 100, "tid": 2, "ts": 1005.0, "dur": 20000.0, "args": {"Task Type": "AI_CORE", "Stream Id": 2, "Task Id": 1}, "ph": "X"}
]
EOF
cat > "$TL/step_trace_0_1_1.json" << 'EOF'
[
{"name": "process_name", "pid": 200, "tid": 0, "args": {"name": "Step Trace"}, "ph": "M"},
{"name": "Iteration 1", "pid": 200, "tid": 200, "ts": 1000.0, "dur": 40000.0, "args": {"Iteration ID": 1}, "cat": "Iteration Time", "ph": "X"},
{"name": "Reduce_1_0", "pid": 200, "tid": 200, "ts": 5000.0, "dur": 30000.0, "args": {"Iteration ID": 1}, "cat": "Reduce", "ph": "X"},
{"name": "Iteration 2", "pid": 200, "tid": 200, "ts": 60000.0, "dur": 15500.0, "args": {"Iteration ID": 2}, "cat": "Iteration Time", "ph": "X"},
{"name": "Reduce_2_0", "pid": 200, "tid": 200, "ts": 61000.0, "dur": 9000.0, "args": {"Iteration ID": 2}, "cat": "Reduce", "ph": "X"},
{"name": "Reduce_3_0", "pid": 200, "tid": 200, "ts": 81000.0, "dur": 10000.0, "args": {"Iteration ID": 3}, "cat": "Reduce", "ph": "X"},
{"name": "Iteration 3", "pid": 200, "tid": 200, "ts": 80000.0, "dur": 17250.0, "args": {"Iteration ID": 3}, "cat": "Iteration Time", "ph": "X"}
]
EOF
"$PR_BIN" -q --input "$T_DIR/PROF_000001_20230818142704322_AAAAAAAAAAAAAAAA" \
    --json "$T_DIR/p.json" --html "$T_DIR/p.html" 2> "$T_DIR/p.err"
check "a PROF folder with msprof_*.json and step_trace_*.json is read" [ $? -eq 0 ]
check "one step (the timeline's), the step trace's 3 iterations noted" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert len(r['steps']) == 1 and r['steps'][0]['duration_us'] == 40000, r['steps']
g = [d for d in r['diagnostics'] if d['kind'] == 'iterations_timed']
assert len(g) == 1 and g[0]['count'] == 3, r['diagnostics']
t = g[0]['text']
assert 'times 3 iterations' in t and 'the report\'s step (40.00 ms)' in t, t
assert 'the other 2 took 15.50 to 17.25 ms each' in t, t
" "$T_DIR/p.json"
check "the note is in the HTML" grep -q 'times 3 iterations' "$T_DIR/p.html"
# issue #30 (review): the export command names the model of the file name
# (step_trace_{device}_{model}_{iteration}.json) and the iteration nearest
# the others' median, and the run's iterations_note sets the analysed step
# against the others (median, Reduce spans: the producer's figures)
check "the export command names --iteration-id and the file's model id" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
t = [d for d in r['diagnostics'] if d['kind'] == 'iterations_timed'][0]['text']
assert 'median 16.38 ms' in t, t
assert 'msprof --export=on --output=<PROF dir> --iteration-id=2 --model-id=1' in t, t
assert 'model-id=M' not in t, t
" "$T_DIR/p.json"
check "iterations_note: a warm-up 2.4 times the others' median, Reduce spans" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
n = r['iterations_note']
assert n.startswith('The analysed step is iteration 1 (40.00 ms), a warm-up: 2.4 times the median of the other 2 iterations, 16.38 ms (15.50 to 17.25 ms)'), n
assert 'its Reduce span (the step trace\'s all-reduce time) falls from 30.00 ms to 9.00 to 10.00 ms in them, still a median 58% of each' in n, n
assert 'the producer\'s figures, from msprof\'s step trace (step_trace_0_1_1.json)' in n and '--iteration-id=2 --model-id=1 exports iteration 2' in n, n
" "$T_DIR/p.json"

if have_shared && shared_summary cann6 msprof/mindinsight_cann6_PROF; then
    check "mindinsight_cann6_PROF: 10 iterations timed, 9 beyond the timeline" \
        python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    g = [d for d in r['diagnostics'] if d['kind'] == 'iterations_timed']
    assert len(r['steps']) == 1 and len(g) == 1 and g[0]['count'] == 10, r['diagnostics']
    assert 'the other 9 took' in g[0]['text'], g[0]
" "$T_DIR/cann6.json"
    check "mindinsight_cann6_PROF: the verdict says iteration 1 is a warm-up, by the step trace" \
        python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
for r, m in zip(d['runs'], ('2', '0')):
    v = r['verdict']['text']
    assert 'The analysed step is iteration 1' in v and 'a warm-up: 3.' in v, v
    assert 'still a median 6' in v and '--model-id=' + m + ' exports' in v, v
    assert 'profile iterations after the first' not in v, v
    o = ' '.join(x['text'] for x in r['observations'])
    assert 'Profile iterations after the first' not in o and '--model-id=' + m in o, o
assert 'msprof\'s step trace times the later ones: see its verdict' in d['job']['late_rank_note']
" "$T_DIR/cann6.json"
else
    skip "mindinsight_cann6_PROF iterations" "no $PR_SHARED/traces"
fi
echo "1..$T_N"
