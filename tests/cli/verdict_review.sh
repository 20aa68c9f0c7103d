#!/bin/sh
# verdict_review.sh - the expert review's verdict and advice findings
# (issues #31, #29; review of main e111fc0) on the shared samples, each
# skipped with a message when ../shared/traces is absent.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "verdict review" "no python3"
    echo "1..$T_N"
    exit 0
fi

# summary NAME INPUT: $T_DIR/NAME.json from a shared input; 1 when absent
summary() {
    [ -e "$PR_SHARED/traces/$2" ] || return 1
    "$PR_BIN" -q --input "$PR_SHARED/traces/$2" --json "$T_DIR/$1.json" \
        2> "$T_DIR/$1.err"
}

# 1. Finding 3: a path that is mostly device idle, with no recorded cause,
# names no bound (bound_of() weighs host, device, copy and communication;
# idle was no candidate, so 8% of kernels read "Bound by device compute").
# The run's verdict: bound "idle", the idle share in words, never "device
# compute"; the Critical path section says the same.
for c in "ms_run1 mindspore/ascend_run1 0 82" \
    "opsum msprof/extra/msinsight_op_summary 0 92" \
    "old2023 torch_npu/old2023 0 92" \
    "msprof_db msprof/extra/msinsight_full_db/msprof_0.db 0 99"; do
    set -- $c
    if summary "$1" "$2"; then
        check "$2: run $3 idle ${4}% of the path, no bound named" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][int(sys.argv[2])]
v = r['verdict']
assert v['bound'] == 'idle', v
k = r['critical_path']['by_kind_us']
assert k['idle'] > max(k['kernel'], k['host_op'] + k['launch'] + k['sync_wait']
                       + k['dataloader'], k['copy'], k['communication']), k
t = v['text']
assert t.startswith('The device is idle %s%% of the critical path and the '
                    'trace records no cause' % sys.argv[3]), t
assert 'device compute' not in t, t
assert v['bound_steps'] <= v['steps'] and v['bound_steps'] > 0, v
" "$T_DIR/$1.json" "$3" "$4"
    else
        skip "$2: idle verdict" "no $PR_SHARED/traces/$2"
    fi
done
# the same reading on the terminal and in the Critical path section; a
# mostly-busy path keeps its bound (HTA's trace_diff test: kernels 73%,
# idle 14%)
if [ -d "$PR_SHARED/traces/msprof/extra/msinsight_op_summary" ]; then
    "$PR_BIN" --input "$PR_SHARED/traces/msprof/extra/msinsight_op_summary" \
        > "$T_DIR/opsum.txt" 2>&1
    "$PR_BIN" -q --input "$PR_SHARED/traces/msprof/extra/msinsight_op_summary" \
        --html "$T_DIR/opsum.html" 2>&1
    check "op_summary: the terminal names idle, not device compute" \
        sh -c 'grep -q "The device is idle 92% of the critical path" "$1" &&
               ! grep -q "Bound by device compute" "$1"' _ "$T_DIR/opsum.txt"
    check "op_summary: the Critical path section says idle leads the path" \
        grep -q "Device idle with no recorded cause is the largest part" \
        "$T_DIR/opsum.html"
else
    skip "op_summary terminal and HTML" "no shared op_summary"
fi
if summary test hta/trace_diff/test/test.json.gz; then
    check "trace_diff test: idle 14% of the path leaves the bound device" \
        python3 -c "
import json, sys
v = json.load(open(sys.argv[1]))['runs'][0]['verdict']
assert v['bound'] == 'device' and v['text'].startswith('Bound by device compute'), v
" "$T_DIR/test.json"
else
    skip "trace_diff test bound" "no shared trace_diff"
fi
echo "1..$T_N"
