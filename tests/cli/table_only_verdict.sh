#!/bin/sh
# table_only_verdict.sh - a torch_npu rank whose files hold only the
# producer's step table (step_trace_time.csv, with or without
# communication.json) has no device task and no critical path: its verdict
# is the step table's, as torch_npu old2023's is ("Bound by communication,
# by the producer's step table (step_trace_time.csv): ..."), and its
# communication finding says truly why no gain is claimed and gives
# communication.json's Wait and Idle as its evidence (review 20 #4: "What
# bounds the step is not known", the cause "host work the trace does not
# attribute", an empty Evidence cell).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "step-table-only verdict" "no python3"
    echo "1..$T_N"
    exit 0
fi

# 1. a lone step table, made here: Computing 10, Communication(Not
# Overlapped) 60, Free 30 of a 100 ms step (µs in the file)
mkdir -p "$T_DIR/lone"
cat > "$T_DIR/lone/step_trace_time.csv" << 'CSV'
Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,Communication(Not Overlapped and Exclude Receive),Preparing
3,10000,60000,2000,62000,30000,100000,0,60000,5000
CSV
"$PR_BIN" -q --input "$T_DIR/lone/step_trace_time.csv" \
    --json "$T_DIR/lone.json" 2> "$T_DIR/lone.err"
check "a lone step table is read" [ $? -eq 0 ]
check "lone table: bound by communication by the step table, no task, a true reason" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
v = r['verdict']
assert v['bound'] == 'communication' and v['basis'] == 'step_trace_time.csv', v
assert v['text'].startswith(\"Bound by communication, by the producer's step table (step_trace_time.csv): 60.0 of 100.0 ms a step is HCCL communication not overlapped by computation (Computing 10.0 ms, Free 30.0 ms)\"), v['text']
assert \"No device task is in these files, only the producer's step table, so there is no critical path to replay\" in v['text'], v['text']
assert 'not known' not in v['text'], v['text']
f = [x for x in v['findings'] if x['id'] == 'communication'][0]
assert f['reason'].startswith('No device tasks in these files'), f
# no path to link to: its evidence is in Recommendations
assert f['href_evidence'] == '#recommendations', f
assert 'attribute' not in json.dumps(f), f
c = [x for x in r['recommendations'] + r.get('observations', []) if x['id'] == 'communication'][0]
assert c['text'].startswith(\"60.0% of the step is HCCL communication not overlapped with computation, by the producer's step table (step_trace_time.csv). These files hold no HCCL operation or task\"), c['text']
assert 'tasks_incomplete' not in [d['kind'] for d in r['diagnostics']], r['diagnostics']
" "$T_DIR/lone.json"

# 2. a rank folder of text_level1's rank 1 with only its step table,
# communication.json, communication_matrix.json and profiler_info: the
# evidence is communication.json's Idle and Wait a step, summed here from
# the file ("Idle Time(ms)", "Wait Time(ms)" of every operation)
S=torch_npu/text_level1/rank1_ascend_pt
if have_shared && [ -d "$PR_SHARED/traces/$S" ]; then
    R="$T_DIR/rank/rank1_ascend_pt"
    mkdir -p "$R/ASCEND_PROFILER_OUTPUT"
    cp "$PR_SHARED/traces/$S"/profiler_info*.json "$R/"
    for f in step_trace_time.csv communication.json communication_matrix.json; do
        cp "$PR_SHARED/traces/$S/ASCEND_PROFILER_OUTPUT/$f" \
            "$R/ASCEND_PROFILER_OUTPUT/"
    done
    "$PR_BIN" -q --input "$R" --json "$T_DIR/rank.json" \
        --html "$T_DIR/rank.html" 2> "$T_DIR/rank.err"
    check "text_level1 rank1, table only: the step table's verdict, the Wait/Idle evidence" \
        python3 -c "
import json, sys
d = json.load(open(sys.argv[2]))
ops = [o['Communication Time Info'] for g in d.values()
       for ops in g.values() for n, o in ops.items() if n != 'Total Op Info']
idle = sum(o['Idle Time(ms)'] for o in ops) / len(d)
wait = sum(o['Wait Time(ms)'] for o in ops) / len(d)
r = json.load(open(sys.argv[1]))['runs'][0]
v = r['verdict']
assert v['bound'] == 'communication' and v['basis'] == 'step_trace_time.csv', v
assert v['text'].startswith(\"Bound by communication, by the producer's step table (step_trace_time.csv): 96.4 of 131.9 ms a step\"), v['text']
assert \"HCCL's operation totals (communication.json)\" in v['text'], v['text']
c = [x for x in r['recommendations'] + r.get('observations', []) if x['id'] == 'communication'][0]
ev = {e['name']: e['us'] / 1000 for e in c['evidence']}
assert abs(ev['HCCL Idle (communication.json)'] - idle) < 0.001, (ev, idle)
assert abs(ev['HCCL Wait (communication.json)'] - wait) < 0.001, (ev, wait)
f = [x for x in v['findings'] if x['id'] == 'communication'][0]
assert f['evidence'].startswith('HCCL Idle (communication.json) 96.3 ms; HCCL Wait (communication.json)'), f
assert 'attribute' not in c['gain_note'], c
assert 'no HCCL task to say what it was' in c['text'], c['text']
" "$T_DIR/rank.json" "$R/ASCEND_PROFILER_OUTPUT/communication.json"
    check "text_level1 rank1, table only: the HTML names no incomplete task list" \
        sh -c '! grep -q "the incomplete task list" "$1" && grep -q "device tasks: none in these files" "$1"' \
        _ "$T_DIR/rank.html"
else
    skip "text_level1 rank1 table only" "no $PR_SHARED/traces/$S"
fi
echo "1..$T_N"
