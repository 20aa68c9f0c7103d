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
# 2. Finding 1: a host-bound path gets a finding from the path itself
# (pathrules.c) when its replay saves 5% or more and the rule on the
# run's aggregates did not fire; its gain is that replay's, its text names
# the path's calls; and "no rule's change shortens the path by 1%" never
# stands beside a what-if of 1% or more.
# invariant RUN_JSON...: every finding's gain is its what_if row's, and
# an empty findings list never says no change saves 1%
invariant() {
    python3 - "$@" << 'PY'
import json, sys
for f in sys.argv[1:]:
    for r in json.load(open(f))['runs']:
        v = r.get('verdict') or {}
        wi = {w['id']: w for w in (r.get('critical_path') or {}).get('what_if') or []}
        for x in r.get('recommendations') or []:
            if x.get('what_if') is not None:
                w = wi[x['what_if']]
                assert abs(w['gain_us'] - x['gain_us']) < 1e-6, (f, x['id'])
        if not v.get('findings'):
            big = [w for w in wi.values() if w['gain_pct'] >= 1]
            nf = v.get('no_finding', '')
            assert nf.startswith('No finding'), (f, v)
            if big:
                assert 'shortens the critical path by 1%' not in nf, (f, nf)
                assert 'replays predict gains' in nf, (f, nf)
PY
}
CTL=hta/trace_diff/control/control.json.gz
if summary control "$CTL"; then
    check "trace_diff control: launches on the path give a launch finding" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
f = [x for x in r['recommendations'] if x['id'] == 'launch_bound']
assert f, r['recommendations']
f = f[0]
w = [w for w in r['critical_path']['what_if'] if w['id'] == 'launch_bound'][0]
assert f['what_if'] == 'launch_bound' and f['gain_pct'] == w['gain_pct'] >= 5, f
assert 'Launches are 25% of the critical path (cudaLaunchKernel' in f['text'], f
assert 'torch.compile(mode=\"reduce-overhead\")' in f['text'], f
v = r['verdict']
assert v['findings'][0]['id'] == 'launch_bound' and 'no_finding' not in v, v
" "$T_DIR/control.json"
    invariant "$T_DIR/control.json"
    check "trace_diff control: the what-if invariants" [ $? -eq 0 ]
else
    skip "trace_diff control launch finding" "no $CTL"
fi
DF=hta/df_index_resolver/df_index_resolver.json.gz
if summary df "$DF"; then
    check "df_index_resolver: the launch finding names torch.compile's graphs" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
f = [x for x in r['recommendations'] if x['id'] == 'launch_bound'][0]
assert f['gain_pct'] > 10, f
assert 'led by CompiledFunctionBackward' in f['text'], f
assert 'mode=\"reduce-overhead\" replays as a CUDA graph' in f['text'], f
" "$T_DIR/df.json"
else
    skip "df_index_resolver launch finding" "no $DF"
fi
AFT=nsys/mfu_2gpu_after.sqlite
if summary after "$AFT"; then
    check "mfu_2gpu_after: syncs around 8-byte copies: stop sending scalars" python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    ids = [x['id'] for x in r['recommendations']]
    assert 'copy_bound' not in ids and 'pageable_copies' not in ids, ids
    f = [x for x in r['recommendations'] if x['id'] == 'host_sync'][0]
    w = [w for w in r['critical_path']['what_if'] if w['id'] == 'host_sync'][0]
    assert f['gain_us'] == w['gain_us'] and f['gain_pct'] >= 5, f
    t = f['text']
    assert 'cudaStreamSynchronize x' in t and '(8 bytes each on average: scalars)' in t, t
    assert 'Keep such values on the device' in t and 'Prefetching does not help' in t, t
" "$T_DIR/after.json"
    invariant "$T_DIR/after.json"
    check "mfu_2gpu_after: the what-if invariants" [ $? -eq 0 ]
else
    skip "mfu_2gpu_after sync finding" "no $AFT"
fi
for c in "test hta/trace_diff/test/test.json.gz" \
    "cluster4 mindspore/extra/cluster_4rank_pipeline"; do
    set -- $c
    if summary "$1" "$2"; then
        invariant "$T_DIR/$1.json"
        check "$2: no 'No finding' beside a replay of 1% or more" [ $? -eq 0 ]
    else
        skip "$2: no finding text" "no $PR_SHARED/traces/$2"
    fi
done
if [ -e "$PR_SHARED/traces/hta/trace_diff/test/test.json.gz" ]; then
    "$PR_BIN" --input "$PR_SHARED/traces/hta/trace_diff/test/test.json.gz" \
        > "$T_DIR/test.txt" 2>&1
    check "trace_diff test: the terminal names the replay no rule claims" \
        grep -q "No finding: no rule's advice fits what this trace shows, though the replays predict gains (the largest: twice the batch, 1.3% of the step" \
        "$T_DIR/test.txt"
else
    skip "trace_diff test terminal" "no shared trace_diff"
fi
RN=tb_plugin/resnet50_num_workers_0
if summary rn "$RN"; then
    check "ResNet-50: the plugin's findings stay (no path launch finding at 3-4%)" \
        python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    ids = [x['id'] for x in r['recommendations']]
    assert ids == ['dataloader', 'enable_amp'], ids
" "$T_DIR/rn.json"
else
    skip "ResNet-50 findings" "no $RN"
fi
echo "1..$T_N"
