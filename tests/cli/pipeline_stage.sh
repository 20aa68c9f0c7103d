#!/bin/sh
# pipeline_stage.sh - the second review's finding 8 (issues #30, #31): in
# ../shared/traces/mindspore/extra/cluster_4rank_pipeline the verdict names
# ranks 2 and 3 the slower pipeline stage, and they get a finding of their
# own (pipeline_stage, first) instead of "No finding": its evidence is the
# stage's computation_time from MindSpore's cluster table (the mean of
# ascend_cluster_analyse_*_<rank>.csv over the rank's steps after the
# warm-up first, read here by Python), and the faster stage's ranks 0 and 1
# do not get it.  Balancing the stages bounds it, and the faster stage's
# pipeline-bubble finding (issue #31, a 1F1B model in stages.c): the
# slowest stage's computation_time above the stages' mean is the most it
# saves, (m - 1)/m of it with m microbatches a step, which no export gives
# (issue #30 review: it read as the least), so both are observations with
# that bound and no gain.
. "$PR_SRCDIR/tests/lib.sh"

# The hand-made two-stage cluster (tests/data/mindspore/pp2, one rank a
# stage, three steps): steps 2 and 3 of rank 0 compute 13.9202 and
# 14.0202 ms (mean 13.9702), of rank 1 122.8529 and 122.9529 ms (mean
# 122.9029); balanced, each computes their mean, 68.43655 ms, so the
# slower stage sheds at most 122.9029 - 68.43655 = 54.46635 ms a step,
# 30.43% of the 179.0 ms median step both ranks' step traces give.
PP2=$PR_SRCDIR/tests/data/mindspore/pp2
if command -v python3 >/dev/null 2>&1 &&
    "$PR_BIN" -q -i "$PP2" --json "$T_DIR/pp2.json" 2>"$T_DIR/pp2.err"; then
    check "pp2: both stage findings bounded by 54.47 ms (30.43%), the model named" python3 -c "
import json, sys
runs = {r['rank']: r for r in json.load(open(sys.argv[1]))['runs']}
for rank, rid in ((0, 'communication'), (1, 'pipeline_stage')):
    f = [x for x in runs[rank]['observations'] if x['id'] == rid][0]
    assert abs(f['bound_us'] - 54466.35) < 0.01 and f['gain_us'] is None, (rank, f)
    assert f['gain_note'].startswith('no estimate: balancing the stages saves (m - 1)/m x 54.5 ms'), f
    assert \"at most 54.5 ms\" in f['gain_note'] and \\
        \"stages' mean, 68.4 ms a step\" in f['gain_note'], f
    assert not [x for x in runs[rank]['recommendations'] if x['id'] == rid], runs[rank]
    v = [x for x in runs[rank]['verdict']['findings'] if x['id'] == rid][0]
    assert v['kind'] == 'observation', v
    assert v['saves'] == '\u2264 54.5 ms' and v['of_step'] == '\u2264 30.4%', v
    # first among the findings, before rank 1's communication finding,
    # which claims no bound (its replay misses the steps by over 2%)
    assert v['rank'] == 1, runs[rank]['verdict']['findings']
assert [f['rank'] for f in runs[1]['verdict']['findings']] == [1, 2], runs[1]['verdict']
" "$T_DIR/pp2.json"
else
    [ -f "$T_DIR/pp2.err" ] && sed 's/^/# /' "$T_DIR/pp2.err"
    check "pp2: both stage findings bounded by 54.47 ms (30.43%), the model named" false
fi

D=$PR_SHARED/traces/mindspore/extra/cluster_4rank_pipeline
if ! have_shared || ! command -v python3 >/dev/null 2>&1 || [ ! -d "$D" ]; then
    skip "the slower pipeline stage's finding and its gain" "no $D or no python3"
    echo "1..$T_N"
    exit 0
fi

cat > "$T_DIR/ps.py" <<'PY'
import csv, glob, json, sys

d, summary = sys.argv[1], sys.argv[2]
runs = {r['rank']: r for r in json.load(open(summary))['runs']}
fail = []
comps = {}
for rank in range(4):
    r = runs[rank]
    f = glob.glob('%s/ascend_cluster_analyse_*_%d.csv' % (d, rank))[0]
    # the rank's steps (the table's rows past them are not steps the
    # rank's step trace holds), the warm-up first left out
    rows = list(csv.DictReader(open(f)))[1:len(r['step_phases']['steps'])]
    comps[rank] = 1000.0 * sum(float(x['computation_time']) for x in rows) / len(rows)
# stages {0, 1} and {2, 3} (4 ranks, 2 stages), each its largest rank's
stage = [max(comps[0], comps[1]), max(comps[2], comps[3])]
gain = max(stage) - sum(stage) / 2
for rank in range(4):
    r = runs[rank]
    comp = comps[rank]
    recs = {x['id']: x for x in r['recommendations'] + (r.get('observations') or [])}
    f = recs.get('pipeline_stage' if rank >= 2 else 'communication')
    if f is None or abs((f.get('bound_us') or 0) - gain) > 100 or \
            f.get('gain_us') is not None or \
            not f.get('gain_note', '').startswith('no estimate: balancing the stages'):
        fail.append('rank%d: bound %s (balance: %.1f us), note %r' % (
            rank, f and f.get('bound_us'), gain, f and f.get('gain_note')))
    # its share is of the median step its note names, not of a mean with
    # the warm-up step (issue #30 review: rank 2 read "<= 9.4%")
    med = r['step_summary']['median_us']
    row = [x for x in r['verdict']['findings'] if x['id'] == (f or {}).get('id')]
    want = '\u2264 %.1f%%' % (100.0 * gain / med)
    if not row or row[0].get('of_step') != want:
        fail.append('rank%d: of_step %r, want %r' % (
            rank, row and row[0].get('of_step'), want))
    # its evidence: the cluster table's figures (bubble: receive_alone_time)
    if not (f or {}).get('evidence'):
        fail.append('rank%d: no evidence' % rank)
    first = (r['verdict']['findings'] or [{}])[0].get('id')
    slow = rank >= 2
    if slow:
        p = recs.get('pipeline_stage')
        if p is None or first != 'pipeline_stage':
            fail.append('rank%d: first finding %s, pipeline_stage %s' % (rank, first, p))
            continue
        ev = p.get('evidence') or [{}]
        if abs(ev[0].get('us', 0) - comp) > 50:
            fail.append('rank%d: evidence %s, computation_time %.1f us' % (rank, ev, comp))
        if r['verdict'].get('no_finding'):
            fail.append('rank%d: no_finding %r' % (rank, r['verdict']['no_finding']))
    elif 'pipeline_stage' in recs:
        fail.append('rank%d (the faster stage): pipeline_stage fires' % rank)
print('\n'.join(fail) if fail else 'ok')
PY

if "$PR_BIN" -q -i "$D" --json "$T_DIR/s.json" 2>"$T_DIR/err"; then
    res=$(python3 "$T_DIR/ps.py" "$D" "$T_DIR/s.json")
    [ "$res" = ok ] || echo "# $res"
    check "the slower stage's ranks get pipeline_stage with the table's computation_time, every stage finding the balance's bound" [ "$res" = ok ]
else
    sed 's/^/# /' "$T_DIR/err"
    check "the slower stage's ranks get pipeline_stage with the table's computation_time, every stage finding the balance's bound" false
fi
# the Pipeline stages caption of a MindSpore cluster (issue #30 review):
# no communication.json to cite, its P2P columns said to be absent
"$PR_BIN" -q --input "$D" --html "$T_DIR/ps.html" 2> /dev/null
check "MindSpore's pipeline caption: P2P wait and idle not in its files" \
    python3 - "$T_DIR/ps.html" << 'PY'
import html, re, sys
t = html.unescape(re.sub(r'<[^>]+>', ' ', open(sys.argv[1], encoding='utf-8').read()))
i = t.index("Stages as MindSpore's cluster files state them")
cap = t[i:t.index('Slowest rank:', i)]
print(cap)
assert "P2P wait and idle: not in MindSpore's files;" in cap, cap
assert 'communication.json' not in cap, cap
PY
echo "1..$T_N"
