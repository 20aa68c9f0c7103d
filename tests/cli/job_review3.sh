#!/bin/sh
# job_review3.sh - the third expert review's finding 8 on a job's spread
# (review of main b4ccb03) on the shared samples, skipped with a message
# when ../shared/traces is absent.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "job review 3" "no python3"
        exit 0
fi

# 4. Finding 8: mindspore/fixtures holds a GPU capture without step
# markers (rank0-gpu), a rank of operator statistics (rank1) and two
# ranks of real steps (rank0: 20, rank10: 40).  Since review30a #10 the
# GPU run is a job of its own (two device kinds hold rank 0), so the NPU
# job's spread is over its two ranks with steps, rank1 listed as without
# steps, and no job mixes GPU and NPU.
FX=mindspore/fixtures
if shared_report fixtures "$FX"; then
    check "fixtures: the spread is over ranks with step markers only" \
        python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
jobs = [j['job'] for j in d['jobs'] if j.get('job')]
assert len(jobs) == 1, len(jobs)
j = jobs[0]
assert j['step_us']['ranks_with_steps'] == 2, j['step_us']
assert abs(j['step_us']['spread_pct'] - 1.83) < 0.01, j['step_us']
pr = {p['worker']: p for p in j['per_rank']}
assert set(pr) == {'rank0', 'rank1', 'rank10'}, pr.keys()
for w in ('rank0', 'rank10'):
    assert pr[w]['in_spread'] and pr[w]['has_steps'], pr[w]
assert not pr['rank1']['in_spread'] and not pr['rank1']['has_steps'], pr['rank1']
assert pr['rank1']['vs_median_pct'] is None, pr['rank1']
assert j['device_kinds'] == ['npu'], j['device_kinds']
assert j['mixed_devices_note'] is None, j['mixed_devices_note']
" "$T_DIR/fixtures.json"
    check "fixtures: the terminal's job line has the spread of its 2 ranks" \
        sh -c 'grep -q "the spread between these is 1.8%" "$1" &&
               ! grep -q "no spread: 1 rank with step markers" "$1"' \
        sh "$T_DIR/fixtures.term"
else
    skip "fixtures job spread" "no $FX"
fi


# torch_npu/old2023: the job's Ranks table's Communication is the step
# table's Communication(Not Overlapped) (146.6 of 291.7 ms: 50.3%), as
# the Distributed section's, not its 21 tasks' 3.5%.
OLD=torch_npu/old2023
if shared_report old "$OLD"; then
    check "old2023: the job's communication share is step_trace_time.csv's" \
        python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))['job']
c = {p['worker']: p['communication_pct'] for p in j['per_rank']}
assert abs(c['rank0'] - 50.26) < 0.1 and abs(c['rank1'] - 51.36) < 0.1, c
" "$T_DIR/old.json"
else
    skip "old2023 job communication" "no $OLD"
fi

echo "1..$T_N"
