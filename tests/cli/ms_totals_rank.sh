#!/bin/sh
# ms_totals_rank.sh - review23a #11 (closing's "Left"): a MindSpore rank
# whose files are operator statistics only (aicore_intermediate_<r>_detail:
# each operator's total time and calls, no timeline, no step trace) has no
# step and no capture time: its operators' summed totals (laid end to end
# for the tables) are not its "capture".  Its step summary's lengths are
# null, Data quality says why (operator_totals_only), and the job's Ranks
# table shows "–" for it, after the ranks with steps and captures, not
# "400 µs" (Cast-op2 is 0.05 ms a call, twice).  Beside it, rank 0 of
# tests/data/mindspore/step_interval (a step trace).
. "$PR_SRCDIR/tests/lib.sh"

command -v python3 > /dev/null 2>&1 || {
    skip "MindSpore operator totals in a job" "no python3"
    echo "1..$T_N"
    exit 0
}
D=$T_DIR/job
mkdir -p "$D"
cp "$PR_SRCDIR"/tests/data/mindspore/step_interval/* "$D/"
chmod -R u+w "$D"
cat > "$D/aicore_intermediate_1_detail.csv" << 'EOF2'
full_kernel_time,execution_time,execution_frequency
Default/network/MatMul-op9,0.2,1
Default/network/Conv2D-op13,0.1,1
Default/network/Cast-op2,0.05,2
EOF2
"$PR_BIN" -q --input "$D" --json "$T_DIR/s.json" --html "$T_DIR/s.html" \
    > "$T_DIR/s.term" 2> "$T_DIR/s.err"
check "a job of a step trace and operator totals: exit 0" test $? -eq 0
check "the totals rank: no step length, Data quality says why, the job row null" \
    python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
r = [x for x in s['runs'] if x['rank'] == 1][0]
ss = r['step_summary']
assert all(ss[k] is None for k in ('mean_us', 'median_us', 'p90_us', 'min_us', 'max_us')), ss
d = [x for x in r['diagnostics'] if x['kind'] == 'operator_totals_only']
assert len(d) == 1 and 'aicore_intermediate' in d[0]['text'] and '(400.0 \u00b5s) is the sum of those totals' in d[0]['text'], r['diagnostics']
assert not [x for x in r['diagnostics'] if x['kind'] == 'no_steps'], r['diagnostics']
jobs = [j['job'] for j in s.get('jobs') or [] if j.get('job')] or [s['job']]
p = [x for j in jobs for x in j['per_rank'] if x['rank'] == 1]
assert len(p) == 1 and p[0]['mean_us'] is None and p[0]['run_mean_us'] is None, p
" "$T_DIR/s.json"
check "the Ranks table: '–' for the totals rank, after the rank with steps, no '400 µs'" \
    python3 -c "
import html, re, sys
t = html.unescape(re.sub(r'<[^>]+>', ' ', open(sys.argv[1]).read()))
t = re.sub(r'\s+', ' ', t)
assert '400 \u00b5s' not in t, t[t.find('400 \u00b5s') - 300:][:400]
i = t.find('Ranks By')
assert i >= 0, 'no Ranks table'
row = re.search(r'rank1 1 ([^a-z]*)', t[i:])
assert row and '\u00b5s' not in row.group(1) and ' ms' not in row.group(1), row and row.group(0)
assert t.find('rank0 0', i) < t.find('rank1 1', i), t[i:i + 400]
" "$T_DIR/s.html"
check "the terminal gives the totals rank no capture time" \
    sh -c '! grep -q "400 µs" "$1"' sh "$T_DIR/s.term"

# the same totals beside a step trace of their rank: its steps stand (the
# step trace times them), and no operator_totals_only row
E=$T_DIR/stepped
mkdir -p "$E"
cp "$PR_SRCDIR/tests/data/mindspore/step_interval/step_trace_raw_0_detail_time.csv" "$E/"
sed 1q "$D/aicore_intermediate_1_detail.csv" > "$E/aicore_intermediate_0_detail.csv"
sed 1d "$D/aicore_intermediate_1_detail.csv" >> "$E/aicore_intermediate_0_detail.csv"
"$PR_BIN" -q --input "$E" --json "$T_DIR/e.json" 2> "$T_DIR/e.err"
check "totals beside a step trace: the steps keep their lengths" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['step_summary']['mean_us'] is not None and r['step_summary']['count'] > 1, r['step_summary']
assert not [x for x in r['diagnostics'] if x['kind'] == 'operator_totals_only'], r['diagnostics']
" "$T_DIR/e.json"
echo "1..$T_N"
