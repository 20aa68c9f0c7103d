#!/bin/sh
# ascend_pp_wait.sh - issue #30 (the CANN 8.3 PP2 DP2 job's rank 0, whose
# communication finding gave its collectives as evidence and advised
# overlapping buckets with backward, while 313.9 of its 420.2 ms of HCCL
# was hcom_batchSendRecv_ waiting for the other pipeline stage).
# tests/data/ascend/pp4w is tests/data/ascend/pp4 with rank 0's task list
# filling its steps (so its overlap replay runs): two all-reduces and two
# batchSendRecv a step.  Where a rank's point-to-point Wait and Idle are
# half of its HCCL Elapse or more, its communication finding's evidence
# is that wait; the job's stages (ranks 2, 3 compute longer) then make it
# a pipeline bubble naming that stage, its bound the stages' balance, not
# the collectives' overlap; elsewhere the finding reads as before.
# Figures are computed here from communication.json.
. "$PR_SRCDIR/tests/lib.sh"

D=$PR_SRCDIR/tests/data/ascend/pp4w
if ! command -v python3 > /dev/null 2>&1; then
    skip "pipeline wait" "no python3"
    echo "1..$T_N"
    exit 0
fi
"$PR_BIN" -q --input "$D" --json "$T_DIR/s.json" 2> "$T_DIR/err"
check "exit 0, no warning" sh -c "[ $? -eq 0 ] && [ ! -s '$T_DIR/err' ]"

py() {
    python3 - "$D" "$T_DIR/s.json" "$@"
}

check "p2p-bound rank: evidence is its p2p Wait and Idle, no bucket advice" py <<'PY'
import json, os, sys
d, s = sys.argv[1], json.load(open(sys.argv[2]))
ok, fired = True, 0
for run in s['runs']:
    cj = json.load(open(os.path.join(d, 'rank%d_ascend_pt' % run['rank'],
                                     'ASCEND_PROFILER_OUTPUT', 'communication.json')))
    steps = len(cj)
    ti = lambda op, k: op['Communication Time Info'][k] * 1000.0
    p2p = [op for st in cj.values() for op in st['p2p'].values()]
    allops = p2p + [op for st in cj.values() for op in st['collective'].values()]
    wait = sum(ti(o, 'Wait Time(ms)') for o in p2p) / steps
    idle = sum(ti(o, 'Idle Time(ms)') for o in p2p) / steps
    elapse = sum(ti(o, 'Elapse Time(ms)') for o in allops) / steps
    mostly = wait > 0 and wait + idle >= 0.5 * elapse
    # the overlap replay's finding only (rank 0, whose tasks replay); the
    # job's stages make it a pipeline bubble with the balance's model gain
    # (pr_stages_apply), its words the same before the stage's sentence
    for o in (run.get('observations') or []) + (run.get('recommendations') or []):
        if o['id'] != 'communication' or 'the finding is the collectives' not in o['text'] \
                and 'point-to-point waiting' not in o['text']:
            continue
        note, ev = o.get('gain_note') or '', o['evidence']
        print(run['rank'], mostly, wait, idle, elapse, ev[:2], note[:80])
        if mostly:
            fired += 1
            ok &= ev[0]['name'] == 'hcom_batchSendRecv_ Wait, 2 calls a step (communication.json)'
            # Idle only where it is a tenth of the two or more (0.4 ms here)
            ok &= abs(ev[0]['us'] - wait) < 1
            ok &= (abs(ev[1]['us'] - idle) < 1) if idle >= 0.1 * (wait + idle) \
                else len(ev) == 1
            ok &= note.startswith("no estimate: balancing the stages saves (m - 1)/m x")
            ok &= o.get('gain_us') is None and o.get('bound_us') > 0
            ok &= 'the finding is the collectives' not in o['text']
            ok &= 'point-to-point waiting' in o['text']
            ok &= "The ranks it waits for are the slower pipeline stage's: the stage of ranks 2, 3" in o['text']
            # the accumulation sentence's hedge gives way to the stage it
            # names (issue #30 review: "a slower stage is the first thing
            # to rule out" two sentences before naming it), and "which
            # accumulation does not fix" to what more micro-batches do in
            # a pipeline (the second review)
            ok &= 'the rank idle until its peer sends: in a pipeline, more micro-batches a step make its fill and drain a smaller share of the step, not its wait for a slower stage.' in o['text']
            ok &= 'which accumulation does not fix' not in o['text']
            ok &= 'first thing to rule out' not in o['text']
        else:
            ok &= 'Wait (communication.json)' not in json.dumps(ev)
            ok &= 'point-to-point waiting' not in note
sys.exit(0 if ok and fired == 1 else 1)
PY

check "the verdict's row gives the p2p wait as evidence" py <<'PY'
import json, sys
s = json.load(open(sys.argv[2]))
r0 = [r for r in s['runs'] if r['rank'] == 0][0]
f = [x for x in r0['verdict']['findings'] if x['id'] == 'communication'][0]
print(f['evidence'], f['title'])
sys.exit(0 if f['evidence'].startswith('hcom_batchSendRecv_ Wait') and
         f['title'].startswith('Pipeline bubble') and f['bound_us'] > 0 else 1)
PY

# the collectives' overlap bound less a wait across stages (issue #30
# review: the CANN 8.3 job's rank 2 "<= 96.4 ms", 86.4 ms of it waiting
# in an all-reduce for rank 0 of the other stage, which no overlap on
# rank 2 shortens).  Rank 0 made collective-bound (its p2p Wait small):
# its overlap bound is 30 ms a step; its all-reduce moved to a group it
# holds with rank 2 (25 ms here, 1 ms there: it waits 24 ms for rank 2).
cp -R "$D" "$T_DIR/ov"
chmod -R u+w "$T_DIR/ov"
python3 - "$T_DIR/ov" << 'PY'
import json, os, sys
d = sys.argv[1]
def comm(r):
    return os.path.join(d, 'rank%d_ascend_pt' % r, 'ASCEND_PROFILER_OUTPUT',
                        'communication.json')
j = json.load(open(comm(0)))
for step, v in j.items():
    for o in v['p2p'].values():
        o['Communication Time Info'].update({
            'Wait Time(ms)': 1.0, 'Synchronization Time(ms)': 0.9,
            'Idle Time(ms)': 0.2, 'Transit Time(ms)': 81.3})
    coll = v['collective']
    (k, o), = coll.items()
    del coll[k]
    o['Communication Time Info'].update({'Elapse Time(ms)': 25.0,
                                         'Idle Time(ms)': 15.7})
    coll[k.split('@')[0].replace('__313_', '__778_') + '@778000'] = o
json.dump(j, open(comm(0), 'w'))
j2 = json.load(open(comm(2)))
for step, v in j2.items():
    o = json.loads(json.dumps(next(iter(v['collective'].values()))))
    o['Communication Time Info'].update({'Elapse Time(ms)': 1.0,
                                         'Transit Time(ms)': 0.8,
                                         'Wait Time(ms)': 0.1,
                                         'Idle Time(ms)': 0.1})
    v['collective']['hcom_allReduce__778_9_1@778000'] = o
json.dump(j2, open(comm(2), 'w'))
PY
"$PR_BIN" -q --input "$T_DIR/ov" --json "$T_DIR/ov.json" 2> "$T_DIR/err"
check "overlap bound less the wait across stages: 30 - 24 = 6 ms, said in its first clause" \
    python3 - "$T_DIR/ov.json" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
r0 = [r for r in s['runs'] if r['rank'] == 0][0]
c = [x for x in (r0.get('recommendations') or []) + (r0.get('observations') or [])
     if x['id'] == 'communication'][0]
print(c.get('bound_us'), c.get('gain_note'))
w = s['distributed']['pipeline']['cross_stage_waits']
assert [(x['rank'], x['peer_rank'], round(x['wait_us'])) for x in w] == [(0, 2, 24000)], w
assert abs(c['bound_us'] - 6000) < 1, c['bound_us']
first = c['gain_note'].split(';')[0]
assert first.endswith('the step is 30.0 ms shorter, less the 24.0 ms a step this '
                      'rank waits in hcom_allReduce_ (group 778, 1 call a step) for '
                      'rank 2 of another pipeline stage, which no overlap on this '
                      'rank shortens (the collective ends when rank 2 arrives): 6.0 ms'), first
v = [f for f in r0['verdict']['findings'] if f['id'] == 'communication'][0]
assert v['saves'] == '\u2264 6.0 ms', v
PY
"$PR_BIN" -q --input "$T_DIR/ov.json" --json "$T_DIR/ov2.json" 2> "$T_DIR/err"
check "read back: the bound taken off once, the finding kept" \
    python3 - "$T_DIR/ov2.json" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
r0 = [r for r in s['runs'] if r['rank'] == 0][0]
c = [x for x in (r0.get('recommendations') or []) + (r0.get('observations') or [])
     if x['id'] == 'communication'][0]
assert abs(c['bound_us'] - 6000) < 1 and c['gain_note'].count('less the') == 1, c
PY

# the cross-stage wait is a typed row (rows.def): keys in schema order, and
# a damaged value refused with its path
. "$PR_SRCDIR/tests/cli/lib/typed.sh"
check "cross_stage_waits: keys in schema order" \
    rows "$T_DIR/ov.json" "distributed.pipeline.cross_stage_waits[]"
check "  its peer_rank as 0.5 is refused" refused "$T_DIR/ov.json" \
    "distributed.pipeline.cross_stage_waits[]" peer_rank 0.5
check "  its elapse_us as text is refused" refused "$T_DIR/ov.json" \
    "distributed.pipeline.cross_stage_waits[]" elapse_us

echo "1..$T_N"
