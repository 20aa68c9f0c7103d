#!/bin/sh
# critpath_steady.sh - review 24 #1: a run whose first step is a warm-up
# (over twice the median step, the mean over 1.25 times it) has the
# verdict quote the path's shares of the steps after it, and says so, not
# the mean over every step that the warm-up outweighs; and a step whose
# path is mostly idle where the producer's table says the rank computes
# most of its step in work its export holds no task for (a MindSpore
# cluster's slower pipeline stage) is bound "idle", not by the largest
# of the rest ("comm.").
#
# The hand-made cluster is tests/data/mindspore/pp2 (two stages, three
# steps of 179 ms; rank 1 computes 122.9 ms a step, its export holding
# only a Receive of 6.431 ms and an AllReduce of 15 ms a step) with rank
# 1's first step made a 999 ms warm-up: starting 820 ms earlier, its
# AllReduce running 993 ms.  Its path: step 1 993 + 6.4 ms of
# communication, steps 2 and 3 21.431 ms of communication and 152.569 ms
# idle (88% of 174 ms), so the steady shares are idle 88%, communication
# 12%, where the mean over the three steps is mostly communication.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
    skip "the verdict's shares without the warm-up step" "no python3"
    echo "1..$T_N"
    exit 0
fi
W=$T_DIR/pp2w
mkdir -p "$W"
cp "$PR_SRCDIR"/tests/data/mindspore/pp2/*.csv "$W"/
# rank 1's step 1: start 1162330079349 (10 ns units), AllReduce from
# 1162330179349 to 1162429479349 (993 ms), the step 999 ms
python3 - "$W/step_trace_raw_1_detail_time.csv" <<'PY'
import sys
p = sys.argv[1]
rows = open(p).read().splitlines()
f = rows[1].split(',')
f[1] = f[4] = '1162330079349'
f[3] = str(int(f[2]) - int(f[1]))
f[7] = str(int(f[5]) - int(f[4]))
f[10] = '1162330080349'
f[11] = str(int(f[10]) + int(f[9]))
f[13], f[14] = '1162330179349', '1162429479349'
f[12] = str(int(f[14]) - int(f[13]))
rows[1] = ','.join(f)
open(p, 'w').write('\n'.join(rows) + '\n')
PY

if "$PR_BIN" -q -i "$W" --json "$T_DIR/w.json" 2>"$T_DIR/w.err" &&
    "$PR_BIN" -q -i "$PR_SRCDIR/tests/data/mindspore/pp2" \
        --json "$T_DIR/p.json" 2>>"$T_DIR/w.err"; then
    check "warm-up: steps 2 and 3 bound idle, step 1 communication; the run's bound names a resource" python3 -c "
import json, sys
r = [x for x in json.load(open(sys.argv[1]))['runs'] if x['rank'] == 1][0]
cp = r['critical_path']
b = [s['bound'] for s in cp['steps']]
assert b == ['communication', 'idle', 'idle'], b
assert cp['bound'] == 'communication', cp['bound']
s2 = cp['steps'][1]['by_kind_us']
assert abs(s2['idle'] - 152569) < 1 and abs(s2['communication'] - 21431) < 1, s2
# the mean over every step is mostly communication: the warm-up's
assert cp['by_kind_us']['communication'] > cp['by_kind_us']['idle'], cp['by_kind_us']
" "$T_DIR/w.json"
    check "warm-up: the verdict quotes the steady steps' shares, the idle as compute, and says the warm-up is left out" python3 -c "
import json, sys
r = [x for x in json.load(open(sys.argv[1]))['runs'] if x['rank'] == 1][0]
v = r['verdict']['text']
assert r['verdict']['bound'] == 'device', r['verdict']
assert 'warm-up first step, left out of the path\'s shares' in v, v
assert 'on it: idle (compute the export holds no tasks for) 88%, communication 12%' in v, v
" "$T_DIR/w.json"
    check "no warm-up: the shares are every step's, no words of a warm-up; rank 0 (the faster stage) keeps comm. steps" python3 -c "
import json, sys
runs = {x['rank']: x for x in json.load(open(sys.argv[1]))['runs']}
v = runs[1]['verdict']['text']
assert 'warm-up' not in v and 'left out' not in v, v
assert [s['bound'] for s in runs[0]['critical_path']['steps']] == ['communication'] * 3, runs[0]['critical_path']['steps']
" "$T_DIR/p.json"
else
    sed 's/^/# /' "$T_DIR/w.err"
    not_ok "warm-up: steps 2 and 3 bound idle, step 1 communication; the run's bound names a resource"
    not_ok "warm-up: the verdict quotes the steady steps' shares, the idle as compute, and says the warm-up is left out"
    not_ok "no warm-up: the shares are every step's, no words of a warm-up; rank 0 (the faster stage) keeps comm. steps"
fi
echo "1..$T_N"
