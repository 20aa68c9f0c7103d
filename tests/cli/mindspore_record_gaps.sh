#!/bin/sh
# mindspore_record_gaps.sh - what a MindSpore export does not record is
# said, not read as 0 or as a measurement (review25a), on hand-made folders:
# - tests/data/mindspore/pp2 (two pipeline stages whose only tasks are the
#   Receive and AllReduce its step traces time): each rank's Data quality
#   has a no_compute_tasks row (#12), and the NPU metrics table shows its
#   utilization, all HCCL tasks, as not known, with gpu_metrics[].note
#   under it (#5);
# - pp2 with rank 1's first step 25 times the others (a warm-up left out
#   of its mean) and rank 0's 1.2 times (under the 1.5x a warm-up needs):
#   one rule for the job leaves the first step out on both, so the spread
#   is 0 and no rank is the longest by mean step (#6);
# - tests/data/mindspore/step_interval (three 10 ms steps) with its
#   timeline cut to step 1's task: steps 2 and 3 lie outside the device's
#   record, so their breakdown is null, not "Other 100%", the step chart
#   says why (#7), and the device_coverage row names MindSpore's cap,
#   never CUPTI (#15a).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
    skip "MindSpore record gaps" "no python3"
    echo "1..$T_N"
    exit 0
fi
D=$PR_SRCDIR/tests/data/mindspore
H2T='
import html, re, sys
t = re.sub(r"(?s)<(script|style)[^>]*>.*?</\1>", "", open(sys.argv[1]).read())
t = html.unescape(re.sub(r"<[^>]+>", " ", t))
t = re.sub(r"\s+", " ", t)
'

# ---- #12, #5: communication tasks only
if "$PR_BIN" -q -i "$D/pp2" --json "$T_DIR/pp2.json" --html "$T_DIR/pp2.html" \
    2>"$T_DIR/pp2.err"; then
    check "pp2: each rank's Data quality says the export holds communication tasks only" \
        python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    d = [x for x in r['diagnostics'] if x['kind'] == 'no_compute_tasks']
    assert len(d) == 1 and d[0]['count'] == 0, (r['worker'], r['diagnostics'])
    t = d[0]['text']
    assert t.startswith('the export holds communication tasks only'), t
    assert 'step_trace_raw_%d_detail_time.csv' % r['rank'] in t, t
    assert 'computation_time (ascend_cluster_analyse)' in t, t
" "$T_DIR/pp2.json"
    check "pp2: the HTML's Data quality names it, never 'No data-quality issues'" \
        python3 -c "$H2T
assert t.count('the export holds communication tasks only') == 2, t.count('the export holds communication tasks only')
assert 'No data-quality issues recorded' not in t
" "$T_DIR/pp2.html"
    check "pp2: the summary keeps the HCCL tasks' utilization and its note" \
        python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    g = r['gpu_metrics'][0]
    assert g['utilization_pct'] > 0 and g['compute_utilization_pct'] is None, g
    assert 'all is HCCL tasks' in g['note'], g
" "$T_DIR/pp2.json"
    check "pp2: NPU metrics shows utilization not known (HCCL tasks only), the note under it" \
        python3 -c "
import html, json, re, sys
s = open(sys.argv[1]).read()
notes = [g['note'] for r in json.load(open(sys.argv[2]))['runs']
         for g in r['gpu_metrics']]
# each NPU metrics table's first row: Device, NPU utilization, Computing
rows = re.findall(r'NPU metrics</h\d>.*?<tbody>\s*<tr>(.*?)</tr>', s, re.S)
assert len(rows) == 2, len(rows)
for row in rows:
    cells = [html.unescape(re.sub(r'<[^>]+>', '', c)).strip()
             for c in re.findall(r'<td[^>]*>(.*?)</td>', row, re.S)]
    assert cells[1] == '\u2013' and cells[2] == '\u2013', cells
t = re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ', s)))
for n in notes:
    assert 'NPU utilization not known (HCCL tasks only): ' + n + '.' in t, n
" "$T_DIR/pp2.html" "$T_DIR/pp2.json"
else
    sed 's/^/# /' "$T_DIR/pp2.err"
    not_ok "pp2: each rank's Data quality says the export holds communication tasks only"
    not_ok "pp2: the HTML's Data quality names it, never 'No data-quality issues'"
    not_ok "pp2: the summary keeps the HCCL tasks' utilization and its note"
    not_ok "pp2: NPU metrics shows utilization not known (HCCL tasks only), the note under it"
fi

# ---- #6: one warm-up rule for the job
mkdir -p "$T_DIR/warm"
cp "$D"/pp2/ascend_cluster_analyse_* "$T_DIR/warm/"
python3 - "$D/pp2" "$T_DIR/warm" <<'PY'
import sys
src, dst = sys.argv[1], sys.argv[2]
step = 17900000  # ticks of 10 ns: 179 ms
for rank, times in ((0, 1.2), (1, 25)):
    name = '/step_trace_raw_%d_detail_time.csv' % rank
    lines = open(src + name).read().splitlines()
    f = lines[1].split(',')
    # step 1 starts earlier: times its length, its end and tasks as they were
    f[1] = str(int(f[2]) - int(times * step))
    f[4] = f[1]
    lines[1] = ','.join(f)
    open(dst + name, 'w').write('\n'.join(lines) + '\n')
PY
if "$PR_BIN" -q -i "$T_DIR/warm" --json "$T_DIR/warm.json" \
    --html "$T_DIR/warm.html" 2>"$T_DIR/warm.err"; then
    check "warm-up on rank 1 (25x), rank 0's first step 1.2x: left out on both, spread 0, no longest mean step" \
        python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
j = s['job']
d = {r['worker']: [x['duration_us'] for x in r['steps']] for r in s['runs']}
assert abs(d['rank0'][0] - 1.2 * 179000) < 1 and abs(d['rank1'][0] - 25 * 179000) < 1, d
assert j['step_us']['ranks_first_step_excluded'] == 2, j['step_us']
for p in j['per_rank']:
    assert p['first_step_excluded'] is True, p
    assert abs(p['mean_us'] - 179000) < 0.01, p
    # only rank 1's own first step is a warm-up (review26a #7)
    assert p['first_step_warmup'] is (p['worker'] == 'rank1'), p
assert j['step_us']['spread_pct'] < 1e-9, j['step_us']
assert j['slowest_by'] == 'pipeline_stage' and j['slowest_by_mean'] is None, j
" "$T_DIR/warm.json"
    "$PR_BIN" -i "$T_DIR/warm" >"$T_DIR/warm.term" 2>/dev/null
    check "warm-up: neither the terminal nor the HTML names a longest mean step" \
        sh -c '! grep -q "longest mean step" "$1" &&
            grep -q "the first step left out on 2 ranks, a warm-up on 1)" "$1" &&
            grep -q "rank0: .* (.* without the first step, as the job line counts)" "$1" &&
            grep -q "rank1: .* (.* without the warm-up first step, as the job line counts)" "$1" &&
            grep -q "leaves out every rank.*s first step, a warm-up on rank1 ([^)]* with it); on rank0 ([^)]* with it) it is left out too, to compare like with like" "$2" &&
            ! grep -q "by mean step alone" "$2" &&
            grep -q "their mean steps differ by less than 0.5%" "$2"' \
        _ "$T_DIR/warm.term" "$T_DIR/warm.html"
else
    sed 's/^/# /' "$T_DIR/warm.err"
    not_ok "warm-up on rank 1 (25x), rank 0's first step 1.2x: left out on both, spread 0, no longest mean step"
    not_ok "warm-up: neither the terminal nor the HTML names a longest mean step"
fi

# ---- #7, #15a: steps outside the device's record
mkdir -p "$T_DIR/cov"
cp "$D"/step_interval/step_trace_raw_0_detail_time.csv \
    "$D"/step_interval/min_cycle_counter_0.txt "$T_DIR/cov/"
python3 - "$D/step_interval/ascend_timeline_display_0.json" \
    "$T_DIR/cov/ascend_timeline_display_0.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))
json.dump(ev[:1], open(sys.argv[2], 'w'))  # step 1's task only
PY
if "$PR_BIN" -q -i "$T_DIR/cov" --json "$T_DIR/cov.json" \
    --html "$T_DIR/cov.html" 2>"$T_DIR/cov.err"; then
    check "timeline of step 1 only: steps 2-3 have every breakdown part null, step 1 its kernel" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
s = r['steps']
assert len(s) == 3, [x['name'] for x in s]
assert s[0]['breakdown_us']['kernel'] == 2000, s[0]
for x in s[1:]:
    assert all(v is None for v in x['breakdown_us'].values()), x
assert r['step_summary']['breakdown_steps'] == 1, r['step_summary']
d = [x['text'] for x in r['diagnostics'] if x['kind'] == 'device_coverage']
assert len(d) == 1 and 'MindSpore caps its timeline file' in d[0], d
assert 'CUPTI' not in d[0], d
" "$T_DIR/cov.json"
    check "timeline of step 1 only: the step chart says why two bars are empty; no CUPTI" \
        python3 -c "$H2T
assert '2 of 3 steps (Step 2 to Step 3) lie outside the device\'s record' in t, t
assert 'CUPTI' not in t
" "$T_DIR/cov.html"
    check "timeline of step 1 only: the note follows the donut, both charts share one grid (review26a #2)" \
        python3 -c "
import re, sys
h = open(sys.argv[1]).read()
d = h.index('Mean step: where the time goes')
g = h.rindex('<div class=\"charts', 0, d)
assert 'Step time breakdown' in h[g:d], 'the two charts in two grids'
assert h.index('lie outside the device') > d, 'the note splits the charts'
" "$T_DIR/cov.html"
    "$PR_BIN" table --kind steps --csv -i "$T_DIR/cov" >"$T_DIR/cov.csv" \
        2>/dev/null
    check "timeline of step 1 only: the steps CSV leaves steps 2-3's parts empty" \
        python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows[0]['kernel_us'] not in ('', None), rows[0]
for r in rows[1:]:
    assert r['kernel_us'] == '' and r['other_us'] == '', r
" "$T_DIR/cov.csv"
else
    sed 's/^/# /' "$T_DIR/cov.err"
    not_ok "timeline of step 1 only: steps 2-3 have every breakdown part null, step 1 its kernel"
    not_ok "timeline of step 1 only: the step chart says why two bars are empty; no CUPTI"
    not_ok "timeline of step 1 only: the steps CSV leaves steps 2-3's parts empty"
fi
echo "1..$T_N"
