#!/bin/sh
# diff_first_iteration.sh - review32a #2: a diff of a job whose first step
# its job line leaves out as a warm-up against a capture of the program's
# first iteration alone (pr_sget_run_first_iteration_only) set the
# baseline's steady steps against the current's only step, that very
# warm-up: mindinsight's 10-iteration job against msprof_cann6 (the same
# job cut to iteration 1) failed "step.mean +200.9%, 15.8 ms -> 47.6 ms"
# while both Step 1s are 47.6 ms.  The step, breakdown, device and
# collective rows are not compared, a warning says why, the gate is
# INCONCLUSIVE (exit 4), never FAIL.  Hand-made torch_npu trace_view.json
# (late_rank_warmup.sh's shapes): two ranks; the baseline four steps from
# Step 0, the first's all-reduce waiting 3 ms for rank 5 (a warm-up), the
# current that first step alone.
. "$PR_SRCDIR/tests/lib.sh"
PYTHONPATH="$PR_SRCDIR/tests/cli/lib${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

if ! command -v python3 > /dev/null 2>&1; then
    skip "diff against a first iteration alone" "no python3"
    echo "1..$T_N"
    exit 0
fi

# late_rank_warmup.sh's generator: args the steps' Notify Wait (us)
sed -n '/^cat > "\$T_DIR\/mk.py"/,/^PY$/p' \
    "$PR_SRCDIR/tests/cli/late_rank_warmup.sh" | sed '1d;$d' > "$T_DIR/mk.py"
for r in 0 1; do
    RANK=$r FIRST=0 python3 "$T_DIR/mk.py" "$T_DIR/b" 3000 5 5 5
    RANK=$r FIRST=0 python3 "$T_DIR/mk.py" "$T_DIR/c" 3000
done

"$PR_BIN" diff -q "$T_DIR/b" "$T_DIR/c" --json "$T_DIR/d.json" \
    > /dev/null 2>&1
check "four steps against the first alone: INCONCLUSIVE (exit 4), not FAIL" \
    [ $? -eq 4 ]
check "  the window's rows and the collectives are not compared, a warning says why" \
    python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['verdict'] == 'inconclusive', d['verdict']
for p in d['runs']:
    for m in p['metrics']:
        if m['metric'].split('.')[0] in ('step', 'breakdown', 'gpu'):
            assert m.get('comparable') is False, m
            assert 'first iteration (Step 0)' in m['not_comparable'], m
    assert p['collectives'], p
    for c in p['collectives']:
        assert c.get('comparable') is False, c
w = d['comparability']['warnings']
assert sum('the current holds only the program' in x and
           'leaves out of its step figures as a warm-up' in x
           for x in w) == 2, w
" "$T_DIR/d.json"
COLUMNS=200 "$PR_BIN" diff "$T_DIR/c" "$T_DIR/b" > "$T_DIR/r.txt" 2> /dev/null
check "the other way round: INCONCLUSIVE, the collectives' change not printed" \
    sh -c "[ $? -eq 4 ] &&
           grep -q 'the baseline holds only the program.s first iteration (Step 0)' '$T_DIR/r.txt' &&
           grep -q '^hccl:all_reduce .*not compared (see Comparability)' '$T_DIR/r.txt'"

# the same four steps on both sides still compare (no first-iteration side)
"$PR_BIN" diff -q "$T_DIR/b" "$T_DIR/b" > /dev/null 2>&1
check "the four-step job against itself passes (exit 0)" [ $? -eq 0 ]

# Kineto ProfilerSteps, paired by number: the job's ProfilerStep#0 (a
# 5 ms warm-up on rank 1) against that step alone compares #0 with #0,
# like for like (0.0%), none of it left out
python3 - "$T_DIR" << 'PY'
import json, os, sys
def rank(path, r, durs):
    ev, ts = [], 1000
    for n, dur in enumerate(durs):
        ev.append({"ph": "X", "cat": "user_annotation",
                   "name": "ProfilerStep#%d" % n, "pid": 1, "tid": 1,
                   "ts": ts, "dur": dur})
        ev.append({"ph": "X", "cat": "kernel", "name": "sgemm", "pid": 0,
                   "tid": 7, "ts": ts + 40, "dur": 400,
                   "args": {"correlation": n + 1, "device": r, "stream": 7}})
        ts += dur + 10
    json.dump({"distributedInfo": {"backend": "nccl", "rank": r,
                                   "world_size": 2},
               "traceEvents": ev}, open(path, "w"))
for d, n in (("kb", 4), ("kc", 1)):
    os.makedirs(os.path.join(sys.argv[1], d))
    rank(os.path.join(sys.argv[1], d, "rank0.pt.trace.json"), 0,
         [1200, 1000, 1000, 1000][:n])
    rank(os.path.join(sys.argv[1], d, "rank1.pt.trace.json"), 1,
         [5000, 1000, 1000, 1000][:n])
PY
"$PR_BIN" diff -q "$T_DIR/kb" "$T_DIR/kc" --json "$T_DIR/k.json" \
    > /dev/null 2>&1
check "ProfilerStep#0..3 against #0 alone: #0 with #0, 0.0%, PASS" \
    sh -c "[ $? -eq 0 ] && python3 -c \"
import json, sys
d = json.load(open(sys.argv[1]))
want = {'rank0': 1200, 'rank1': 5000}
for p in d['runs']:
    m = {x['metric']: x for x in p['metrics']}['step.mean']
    assert m['baseline'] == m['current'] == want[p['current']], m
    assert m.get('comparable') is not False, m
\" '$T_DIR/k.json'"
echo "1..$T_N"
