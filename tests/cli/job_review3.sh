#!/bin/sh
# job_review3.sh - the third expert review's finding 8 on a job's spread
# (review of main b4ccb03) on the shared samples, skipped with a message
# when ../shared/traces is absent.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "job review 3" "no python3"
        exit 0
fi

# 4. Finding 8: mindspore/fixtures' job #2 is a GPU capture without step
# markers (rank0-gpu), a rank of operator statistics (rank1) and 40 real
# steps (rank10): no spread over one rank with steps, the others listed
# as without steps, and a note that one job mixes GPU and NPU.
FX=mindspore/fixtures
if shared_report fixtures "$FX"; then
    check "fixtures: the spread is over ranks with step markers only" \
        python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
jobs = [j['job'] for j in d['jobs'] if j.get('job')]
assert len(jobs) == 1, len(jobs)
j = jobs[0]
assert j['step_us']['ranks_with_steps'] == 1, j['step_us']
assert j['step_us']['spread_pct'] is None, j['step_us']
pr = {p['worker']: p for p in j['per_rank']}
assert pr['rank10']['in_spread'] and pr['rank10']['has_steps'], pr['rank10']
for w in ('rank0-gpu', 'rank1'):
    assert not pr[w]['in_spread'] and not pr[w]['has_steps'], pr[w]
    assert pr[w]['vs_median_pct'] is None, pr[w]
assert j['device_kinds'] == ['gpu', 'npu'], j['device_kinds']
assert 'GPU and NPU' in j['mixed_devices_note'], j['mixed_devices_note']
" "$T_DIR/fixtures.json"
    check "fixtures: the terminal's job line has no spread" \
        sh -c '! grep -q "spread between these is" "$1" &&
               grep -q "no spread: 1 rank with step markers" "$1"' \
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
