#!/bin/sh
# job_groups.sh - a folder of unrelated traces is several jobs, not one
# (issue #15): runs are grouped by folder and distributedInfo (a rank held
# by two workers splits a folder, the start pairs the ranks), each job's
# figures are its own, and stderr names the jobs.  One job split per node
# folder stays one job, and so do per-rank summaries merged.
. "$PR_SRCDIR/tests/lib.sh"

SOURCE_DATE_EPOCH=1700000000
export SOURCE_DATE_EPOCH
cd "$T_DIR" || exit 1
F=$PR_SRCDIR/tests/data/jobs/two_jobs
A0=$F/host_100.1714521600000.pt.trace.json
A1=$F/host_400.1714521600002.pt.trace.json
B0=$F/host_300.1714608000000.pt.trace.json
B1=$F/host_200.1714608000001.pt.trace.json

# two_jobs: summary.json -> exit status; the jobs must be A = host_100 +
# host_400 and B = host_300 + host_200 (a day later), each with its own
# distributed and job views over its two ranks only
two_jobs() {
    python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
runs, jobs = s['runs'], s.get('jobs') or []
assert s['job'] is None and s['distributed'] is None, 'top-level views mix jobs'
got = sorted(sorted(runs[i]['worker'] for i in j['runs']) for j in jobs)
assert got == [['host_100', 'host_400'], ['host_200', 'host_300']], got
for j in jobs:
    mine = set(runs[i]['worker'] for i in j['runs'])
    assert j['ranks'] == [0, 1] and j['world_size'] == 2, j
    assert set(w['worker'] for w in j['distributed']['workers']) == mine
    assert j['job']['ranks'] == 2
    assert all(runs[p['run']]['worker'] in mine for p in j['job']['per_rank'])
    assert runs[j['job']['slowest']['run']]['worker'] in mine
    for st in j['distributed']['stragglers']:
        assert st['worker'] in mine
" "$1"
}

"$PR_BIN" --input "$F" --json s.json --html s.html --pdf s.pdf 2> err
check "two 2-rank jobs in one folder: exit 0" [ $? -eq 0 ]
check "  two jobs, ranks paired by start, each job's views its own" two_jobs s.json
check "  stderr names them: read 2 jobs from the folder" \
    grep -q "read 2 jobs from .*two_jobs: two_jobs #1 (ranks 0-1 of 2), two_jobs #2 (ranks 0-1 of 2)" err
check "  and no longer warns that the figures mix them" \
    sh -c '! grep -q "several jobs" err'
"$PR_BIN" -q --input "$F" --json q.json 2> err
check "  --quiet says nothing" [ ! -s err ]
"$PR_BIN" -q --input "$F" --jobs 3 --json s3.json 2> err
check "  --jobs 3 groups them alike, byte for byte" cmp -s s.json s3.json

# the same traces, one folder per job
mkdir -p sub/A sub/B && cp "$A0" "$A1" sub/A && cp "$B0" "$B1" sub/B
"$PR_BIN" --input sub --json sub.json 2> err
check "one folder per job: two jobs" two_jobs sub.json
check "  named by their folders" grep -q "read 2 jobs from .*sub: A (ranks 0-1 of 2), B (ranks 0-1 of 2)" err

# one job whose ranks were kept per node: one job, as before
mkdir -p nodes/node0 nodes/node1 && cp "$A0" nodes/node0 && cp "$A1" nodes/node1
"$PR_BIN" --input nodes --json nodes.json 2> err
check "one job's ranks in per-node folders: one job (no jobs key)" python3 -c "
import json, sys
s = json.load(open('nodes.json'))
sys.exit('jobs' in s or s['job']['ranks'] != 2 or len(s['distributed']['workers']) != 2)"
check "  and no word about jobs" sh -c '! grep -q "jobs" err'
mkdir -p one && cp "$A0" "$A1" one
"$PR_BIN" -q --input one --json one.json
check "one job's folder: the job view over both ranks, no jobs key" python3 -c "
import json, sys
s = json.load(open('one.json'))
sys.exit('jobs' in s or s['job']['ranks'] != 2)"

# per-rank summaries merged: the tb plugin's span (epoch ms) pairs them
i=0
sums=""
for t in "$A0" "$A1" "$B0" "$B1"; do
    "$PR_BIN" -q --input "$t" --json "r$i.json"
    sums="$sums --input r$i.json"
    i=$((i + 1))
done
# shellcheck disable=SC2086
"$PR_BIN" $sums --json merged.json 2> err
check "four per-rank summaries merged: the same two jobs" two_jobs merged.json
check "  named on stderr" grep -q "read 2 jobs" err

# the real hta folder: no job mixes world sizes or holds a rank twice
H=$PR_SHARED/traces/hta
if [ -d "$H" ]; then
    "$PR_BIN" --input "$H" --json hta.json 2> err
    check "hta folder: exit 0" [ $? -eq 0 ]
    check "  no job mixes world sizes or repeats a rank" python3 -c "
import json, sys
s = json.load(open('hta.json'))
runs, jobs = s['runs'], s['jobs']
assert len(jobs) > 10 and s['job'] is None and s['distributed'] is None
seen = set()
for j in jobs:
    ws = set(runs[i]['world_size'] for i in j['runs']) - {None}
    assert len(ws) <= 1, (j['name'], ws)
    ranks = [runs[i]['rank'] for i in j['runs'] if runs[i]['rank'] is not None]
    assert len(ranks) == len(set(ranks)), (j['name'], ranks)
    assert not seen & set(j['runs']); seen |= set(j['runs'])
assert seen == set(range(len(runs)))
tf = [j for j in jobs if j['name'] == 'trace_filter']
assert len(tf) == 1 and tf[0]['ranks'] == [0, 1] and tf[0]['job']['ranks'] == 2
"
    check "  stderr: read N jobs from the folder" grep -q "read [0-9]* jobs from $H:" err
else
    skip "hta folder grouped by job" "no $H (shared traces absent)"
fi

echo "1..$T_N"
