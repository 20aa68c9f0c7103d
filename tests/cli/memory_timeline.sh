#!/bin/sh
# memory_timeline.sh - torch.profiler's raw memory timeline
# (export_memory_timeline_raw, HTA's memory analysis input): a hand-made
# file whose peak and per-category split are known
# (tests/data/memtl/README.md), bad rows refused with their index (exit
# 2), a long file kept to a bounded curve that holds the peak, and the
# shared sample against HTA's _process_raw_events recomputed here.
. "$PR_SRCDIR/tests/lib.sh"

data=$PR_SRCDIR/tests/data/memtl
if ! command -v python3 > /dev/null 2>&1; then
    skip "memory timeline" "no python3"
    echo "1..$T_N"
    exit 0
fi

"$PR_BIN" -q --input "$data/small.json" --json "$T_DIR/small.json" \
    --html "$T_DIR/small.html"
check "a raw memory timeline is read (exit $?)" [ -s "$T_DIR/small.json" ]
check "its peak, span and categories are the hand-worked ones" python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
assert s['inputs'][0]['format'] == 'memory_timeline', s['inputs']
r = s['runs'][0]
assert r['framework'] == 'pytorch' and r['host_only'] is False, r
m = r['memory_timeline']
assert (m['rows'], m['points']) == (11, 7), m
# memtl13: rows by torch's Action (README: 2 preexisting, 4 creates, one
# version change as two rows, 3 destroys)
assert (m['rows_preexisting'], m['rows_create'], m['rows_increment_version'],
        m['rows_destroy']) == (2, 4, 2, 3), m
assert (m['peak_bytes'], m['peak_at_us'], m['span_us']) == (8500, 3000, 5000), m
assert m['device'] is None, m
cats = {c['name']: c for c in m['categories']}
assert [c['name'] for c in m['categories']] == ['Parameter',
    'Optimizer state', 'Input', 'Temporary', 'Activation', 'Gradient',
    'Autograd', 'Unknown'], cats
want = {'Parameter': (1000, 1000), 'Optimizer state': (500, 500),
        'Input': (0, 0), 'Temporary': (0, 300), 'Activation': (4000, 6000),
        'Gradient': (1000, 1000), 'Autograd': (2000, 2000), 'Unknown': (0, 0)}
for k, (at, mx) in want.items():
    assert (cats[k]['at_peak_bytes'], cats[k]['max_bytes']) == (at, mx), cats[k]
assert abs(cats['Activation']['at_peak_pct'] - 400000 / 8500) < 1e-9
# the curve: every point (7 < 500), times from the first, the peak on it
assert m['curve_t_us'] == [0, 0, 1000, 2000, 3000, 4000, 5000], m['curve_t_us']
tot = [sum(c['curve_bytes'][i] for c in m['categories']) for i in range(7)]
assert tot == [1500, 3800, 7500, 7500, 8500, 4500, 2500], tot
# memory only: no steps, kernels, operators, recommendations
assert r['step_summary']['count'] == 0 and r['recommendations'] == [], r
assert r['memory'] is None and r['kernels'] == [], r
" "$T_DIR/small.json"
check "the HTML shows the timeline and the peak's make-up, no other view" \
    python3 -c "
import re, sys
h = open(sys.argv[1]).read().replace('<wbr>', '')
assert 'Memory timeline' in h and 'Memory by category (stacked)' in h
assert 'Peak 8.30 KiB at 3.00 ms from the first row: Activation 47.1%' in h, \
    re.findall(r'Peak [^<]*', h)
assert 'Devices</dt><dd>one, not named<' in h, 'one file, one device'
# memtl13: the rows were \"allocations, frees and version changes\",
# though 2 are tensors older than the profile and a change is two rows
assert \"Rows by torch.profiler's action: 2 tensors present before the \" \\
    \"profile (time -1, placed at the first time), 4 allocations, 3 frees \" \\
    \"and 1 version change (two rows per change\" in h.replace('&#39;', \"'\"), \\
    re.findall(r'Rows by[^<]*', h)
assert 'allocations, frees and version changes' not in h
for absent in ('id=\"overview\"', 'id=\"operators\"', 'id=\"verdict\"',
               'id=\"memory\"', 'CPU only', 'no GPU'):
    assert absent not in h, absent
" "$T_DIR/small.html"
# review 14 #6: no profiler setting is advised for what the file cannot
# hold (with_stack, with_modules, record_shapes, CPU activities)
check "no advice to record stacks, modules or shapes for a memory timeline" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
notes = [r['source_view']['note'], r['module_view']['note'],
         r['layer_view']['note'], r['synchronization']['note']]
assert all(n and n.startswith('A raw memory timeline') for n in notes), notes
assert 'with_stack=True' not in json.dumps(r) and 'record_shapes=True' not in json.dumps(r), r
" "$T_DIR/small.json"
"$PR_BIN" --input "$data/small.json" > "$T_DIR/small.term" 2>&1
check "the terminal says memory only and gives the peak" grep -q \
    "memory only: no steps, operators or kernels" "$T_DIR/small.term"
check "the terminal names the peak's categories" grep -q \
    "Peak 8.30 KiB at 3.00 ms from the first row: Activation 47.1%" \
    "$T_DIR/small.term"
"$PR_BIN" table --kind kernels --input "$data/small.json" \
    > "$T_DIR/small.table" 2>&1
check "a table says the input is a memory timeline, not a CPU-only capture" \
    grep -q "no rows: the input is torch.profiler's raw memory timeline" \
    "$T_DIR/small.table"
printf '\357\273\277[[-1, 1, 5, 0]]' > "$T_DIR/bom.json"
"$PR_BIN" -q --input "$T_DIR/bom.json" --json "$T_DIR/bom.out"
check "a byte order mark before the array is read past (exit $?)" \
    grep -q '"peak_bytes":.5' "$T_DIR/bom.out"

# a saved summary is re-drawn alone; its categories are typed rows the
# loader checks
"$PR_BIN" -q --input "$T_DIR/small.json" --html "$T_DIR/again.html"
check "a saved summary's report draws the timeline again (exit $?)" \
    grep -q "Memory by category (stacked)" "$T_DIR/again.html"
python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
s['runs'][0]['memory_timeline']['categories'][2]['max_bytes'] = 'x'
json.dump(s, open(sys.argv[2], 'w'))
" "$T_DIR/small.json" "$T_DIR/bad_saved.json"
"$PR_BIN" -q --input "$T_DIR/bad_saved.json" --html "$T_DIR/bad.html" \
    2> "$T_DIR/bad_saved.err"
rc=$?
check "a saved summary's bad category row is refused (exit $rc)" grep -q \
    "memory_timeline.categories\[2\].max_bytes: expected a number" \
    "$T_DIR/bad_saved.err"

# bad rows: exit 2, the file and the row named
bad() { # NAME TEXT WANT
    printf '%s' "$2" > "$T_DIR/$1.json"
    "$PR_BIN" -q --input "$T_DIR/$1.json" --json "$T_DIR/$1.out" \
        2> "$T_DIR/$1.err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q "$1.json: .*$3" "$T_DIR/$1.err"; then
        ok "$1: exit 2, '$3'"
    else
        not_ok "$1: exit $rc, $(cat "$T_DIR/$1.err")"
    fi
}
bad three_numbers '[[-1, 1, 5, 0], [10, 2, 5]]' \
    'row 1: 3 numbers, not 4'
bad five_numbers '[[-1, 1, 5, 0, 9]]' 'row 0: more than 4 numbers'
bad category '[[-1, 1, 5, 0], [10, 2, 5, 8]]' 'row 1: unknown category 8'
bad action '[[10, 5, 5, 0]]' 'row 0: unknown action 5'
bad string '[[10, 2, 5, 0], [11, 2, "5", 0]]' \
    'row 1: numbytes is not a number'
bad fraction '[[10, 2, 5.5, 0]]' 'row 0: numbytes "5.5" is not a whole'
bad early '[[-2, 1, 5, 0]]' 'row 0: time -2 is negative'
bad sign '[[10, 4, 5, 0]]' 'row 0: a destroy of 5 bytes'
bad truncated '[[10, 2, 5, 0], [11, 2,' 'truncated: the file ends in or after row 1'
python3 -c "
import gzip, sys
rows = ','.join('[%d, 2, 16, 4]' % (1000 + i) for i in range(20000))
data = gzip.compress(('[' + rows + ']').encode())
open(sys.argv[1], 'wb').write(data[:len(data) // 2])
" "$T_DIR/cut.json.gz"
"$PR_BIN" -q --input "$T_DIR/cut.json.gz" --json "$T_DIR/cut.out" \
    2> "$T_DIR/cut.err"
rc=$?
check "a truncated gzip is refused (exit $rc) with its row: $(cat "$T_DIR/cut.err")" \
    grep -q "cut.json.gz: in or after row [0-9][0-9]*: .*truncated" "$T_DIR/cut.err"

# byte counts whose sum passes int64: saturated, never signed overflow
# (UBSan halts the sanitizer build on it; the lead's re-read found it)
printf '[[1,2,9223372036854775807,0],[2,2,9223372036854775807,0],[3,2,9223372036854775807,1]]' \
    > "$T_DIR/ovf.json"
"$PR_BIN" -q --input "$T_DIR/ovf.json" --json "$T_DIR/ovf.out" \
    2> "$T_DIR/ovf.err"
rc=$?
check "sums past int64 saturate (exit $rc, no runtime error)" \
    sh -c "[ $rc -eq 0 ] && ! grep -q 'runtime error' '$T_DIR/ovf.err'"

# a long timeline: the curve stays bounded and keeps the peak
python3 -c "
import sys, random
random.seed(7)
rows, live, t = [], [], 10**18
for i in range(300000):
    t += random.choice([0, 1000, 1000])
    if live and random.random() < 0.48:
        b, c = live.pop(random.randrange(len(live)))
        rows.append('[%d,4,%d,%d]' % (t, -b, c))
    else:
        b, c = random.randrange(1, 1 << 20), random.randrange(8)
        live.append((b, c))
        rows.append('[%d,2,%d,%d]' % (t, b, c))
open(sys.argv[1], 'w').write('[' + ','.join(rows) + ']')
" "$T_DIR/long.json"
"$PR_BIN" -q --input "$T_DIR/long.json" --json "$T_DIR/long.out"
check "a 300000-row timeline is read (exit $?)" [ -s "$T_DIR/long.out" ]
hta_check() { # SUMMARY RAW: the summary against HTA's algorithm
    python3 -c "
import gzip, json, sys
raw = open(sys.argv[2], 'rb').read()
if raw[:2] == b'\x1f\x8b':
    raw = gzip.decompress(raw)
timeline = json.loads(raw)
# hta/memory_analysis.py, MemoryAnalysis._process_raw_events
times, sizes, t_min = [], [], -1
for t, _, numbytes, category in timeline:
    if t_min == -1 or (t < t_min and t > 0):
        t_min = t
    if len(times) == 0:
        times.append(t)
        sizes.append([0] * 8)
    elif t != times[-1]:
        times.append(t)
        sizes.append(sizes[-1].copy())
    sizes[-1][category] += numbytes
times = [t_min if t < 0 else t for t in times]
tot = [sum(s) for s in sizes]
i = max(range(len(tot)), key=lambda k: (tot[k], -k))
m = json.load(open(sys.argv[1]))['runs'][0]['memory_timeline']
assert m['rows'] == len(timeline) and m['points'] == len(times), m['points']
acts = [sum(1 for r in timeline if r[1] == a) for a in (1, 2, 3, 4)]
assert [m['rows_preexisting'], m['rows_create'], m['rows_increment_version'],
        m['rows_destroy']] == acts, acts
assert m['peak_bytes'] == tot[i], (m['peak_bytes'], tot[i])
assert abs(m['peak_at_us'] - (times[i] - t_min) / 1e3) < 1e-3, m['peak_at_us']
assert abs(m['span_us'] - (max(times) - t_min) / 1e3) < 1e-3, m['span_us']
for c, row in enumerate(m['categories']):
    assert row['at_peak_bytes'] == sizes[i][c], (row, sizes[i])
    assert row['max_bytes'] == max(s[c] for s in sizes), row
n = len(m['curve_t_us'])
assert 2 <= n <= 500 and all(len(c['curve_bytes']) == n
                             for c in m['categories']), n
curve = [sum(c['curve_bytes'][k] for c in m['categories']) for k in range(n)]
assert max(curve) == tot[i], (max(curve), tot[i])
assert m['curve_t_us'][-1] == m['span_us'] or len(times) <= 500
print(len(timeline), 'rows,', len(times), 'points, peak', tot[i], 'curve', n)
" "$1" "$2"
}
check "the long timeline's peak and categories are HTA's, its curve <= 500 points" \
    hta_check "$T_DIR/long.out" "$T_DIR/long.json"

# a folder of a trace and a memory timeline, both runs in full: the
# timeline is the trace's companion, not a rank of its job (issue #29):
# it is an entry of its own, named by its file ("small.raw"), whose
# Memory timeline section draws it alone; the trace's job has no such section, and the
# timeline's verdict gives its own reason for no bound (it records memory
# only), not "no step with a critical path"
mkdir "$T_DIR/mix"
cp "$PR_SRCDIR/tests/data/autograd/cuda.json" "$T_DIR/mix/trace.json"
cp "$data/small.json" "$T_DIR/mix/small.raw.json"
"$PR_BIN" -q --input "$T_DIR/mix" --detail-ranks all --json "$T_DIR/mix.out" \
    --html "$T_DIR/mix.html" 2> "$T_DIR/mix.err"
check "a trace beside a memory timeline: both runs read (exit $?)" \
    python3 -c "
import json, sys
runs = {r['worker']: r for r in json.load(open(sys.argv[1]))['runs']}
assert sorted(runs) == ['small.raw', 'trace'], sorted(runs)
assert runs['trace'].get('memory_timeline') is None, runs['trace']['memory_timeline']
assert runs['small.raw']['memory_timeline']['peak_bytes'] == 8500
" "$T_DIR/mix.out"
check "the timeline's verdict says it records memory only" python3 -c "
import json, sys
runs = {r['worker']: r for r in json.load(open(sys.argv[1]))['runs']}
v = runs['small.raw']['verdict']
assert 'critical path' not in v['text'], v['text']
assert \"torch.profiler's raw memory timeline\" in v['text'], v['text']
assert v['no_finding'].startswith('No finding: a memory timeline holds'), v
# the trace's own verdict is its step's
assert runs['trace']['verdict']['text'].startswith('Bound by'), runs['trace']['verdict']
" "$T_DIR/mix.out"
check "the Memory timeline section is the timeline's job's, with it alone" python3 -c "
import html, json, re, sys
s = json.load(open(sys.argv[1]))
jobs = {j['name']: j['runs'] for j in s['jobs']}
assert sorted(jobs) == ['mix', 'small.raw'], jobs
k = [j['name'] for j in s['jobs']].index('small.raw') + 1
h = open(sys.argv[2]).read().replace('<wbr>', '')
assert h.count('-memory_timeline\"') == 1, 'one Memory timeline section'
i = h.index('id=\"job%d-memory_timeline\"' % k)
sec = h[i:h.index('<section', i)]
text = html.unescape(re.sub(r'<[^>]*>', ' ', sec))
assert 'no raw memory timeline' not in text, text[:400]
assert 'Peak 8.30 KiB at 3.00 ms from the first row: Activation 47.1%' in text
assert 'other views are absent, not zero' in text, text
" "$T_DIR/mix.out" "$T_DIR/mix.html"

# issue #29: by default (no --detail-ranks) a memory timeline beside a
# trace was the second rank of a 2-rank job and only in its rank form
# (no Memory timeline section); beside two ranks of one job (world size
# 2) it made a 3-rank job.  It is never a rank of a job of traces: the
# trace's job keeps its ranks, the timeline is drawn in full (its curve),
# read from the traces or from their saved summary.
"$PR_BIN" -q --input "$data/beside_trace" --json "$T_DIR/bt.json" \
    --html "$T_DIR/bt.html"
check "beside a trace: the memory timeline is in full, its own job, no rank of the trace's" \
    python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
runs = s['runs']
assert s['job'] is None, s['job']
assert all(r.get('form') != 'rank' for r in runs), [r.get('form') for r in runs]
jobs = {j['name']: (j['kind'], sorted(runs[i]['worker'] for i in j['runs']))
        for j in s['jobs']}
# review 19 #9: named by its file, as stderr and the terminal name it, with
# a kind a consumer filters on
assert jobs == {'beside_trace': ('traces', ['worker_a']),
                'worker_a.raw': ('memory_timeline', ['worker_a.raw'])}, jobs
m = [r for r in runs if r['worker'] == 'worker_a.raw'][0]['memory_timeline']
assert m['peak_bytes'] == 8500 and len(m['curve_t_us']) >= 2, m
h = open(sys.argv[2]).read().replace('<wbr>', '')
assert 'memory_timeline\"' in h and 'peak 8.30 KiB at 3.00 ms' in h
assert 'is not a rank of a job' in h  # the jobs' index says why
" "$T_DIR/bt.json" "$T_DIR/bt.html"
# review 18 #6: the timeline beside a trace is no "job" of "1 run" in a
# Ranks column: the index gives its kind and '–' for its ranks, names the
# export that wrote the file read (export_memory_timeline_raw), and says
# nothing of "each job's figures" (one job of traces here); stderr, the
# HTML header and the PDF agree
"$PR_BIN" --input "$data/beside_trace" --html "$T_DIR/bt2.html" \
    --pdf "$T_DIR/bt2.pdf" > /dev/null 2> "$T_DIR/bt2.err"
check "beside a trace: the index, header and stderr call the timeline no job" \
    python3 -c "
import html, re, sys
h = open(sys.argv[1]).read().replace('<wbr>', '')
i = h.index('id=\"jobs\"')
idx = html.unescape(re.sub(r'<[^>]*>', ' ', h[i:h.index('</section>', i)]))
idx = re.sub(r'\s+', ' ', idx)
# memtl13: its file is named after the trace's worker (worker_a.raw.json
# beside worker_a.pt.trace.json), by its name alone
# review 21 #12: no '1' in Runs for the timeline, which is no run
assert 'Kind' in idx and 'memory timeline – – ' in idx, idx
assert \"name alone (a file holds no process or device), worker_a.raw \" \\
    \"is named after worker_a's trace.\" in idx, idx
# review 19 #9: the trace names no rank; its Ranks cell said '1 run'
assert 'traces none named 1' in idx, idx
assert 'export_memory_timeline_raw' in idx, idx
assert 'are its own' not in idx, idx
# review 19 #9: the timeline is no run; every part counted alike, named
# by its file
u = html.unescape(h)
assert '1 run in 1 job, beside_trace; 1 memory timeline: worker_a.raw<' in u, \
    re.findall(r'Workers</dt><dd>[^<]*', u)
assert re.findall(r'(?:Part|Job) [0-9]+ of [0-9]+: [^<]*', u) == \
    ['Part 1 of 2: beside_trace', 'Part 2 of 2: worker_a.raw'], \
    re.findall(r'(?:Part|Job) [0-9]+ of [0-9]+: [^<]*', u)
assert '(memory timeline)' not in u, 'folder-named timeline'
e = open(sys.argv[2]).read().replace('<wbr>', '')
assert 'read 1 job and 1 memory timeline from' in e, e
assert 'worker_a.raw: a memory timeline (torch.profiler' in e, e
assert \"export_memory_timeline_raw) named after worker_a's trace, shown on its own\" in e, e
assert 'each job' not in e and '(memory timeline) (1 run)' not in e, e
" "$T_DIR/bt2.html" "$T_DIR/bt2.err"
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext -layout "$T_DIR/bt2.pdf" "$T_DIR/bt2.txt"
    check "beside a trace: the PDF counts 1 run, 1 job and 1 memory timeline" \
        python3 -c "
import re, sys
t = open(sys.argv[1]).read().replace('<wbr>', '')
assert re.search(r'Runs +1 run and 1 memory timeline\n', t), t[:600]
assert re.search(r'Parts +2: 1 job and 1 memory timeline\n', t), t[:600]
assert 'one part each' not in t and 'Job 1 of' not in t, t[:600]
assert 'Part 2 of 2: worker_a.raw' in t, 'part heading'
assert not re.search(r'Ranks +1 run', t), 'no rank is named'
" "$T_DIR/bt2.txt"
else
    skip "beside a trace: the PDF's jobs line" "no pdftotext"
fi
J=$PR_SRCDIR/tests/data/jobs/two_jobs
mkdir "$T_DIR/two"
cp "$J/host_100.1714521600000.pt.trace.json" \
    "$J/host_400.1714521600002.pt.trace.json" "$T_DIR/two/"
cp "$data/small.json" "$T_DIR/two/host_100.raw.json"
"$PR_BIN" -q --input "$T_DIR/two" --json "$T_DIR/two.json"
"$PR_BIN" -q --input "$T_DIR/two.json" --json "$T_DIR/two2.json"
for f in two two2; do
    check "beside two ranks ($f): the job is the 2 traces, the timeline apart and in full" \
        python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
runs = s['runs']
assert all(r.get('form') != 'rank' for r in runs), [r.get('form') for r in runs]
jobs = {j['name']: (sorted(runs[i]['worker'] for i in j['runs']), j['ranks'],
                    j['world_size']) for j in s['jobs']}
assert jobs == {'two': (['host_100', 'host_400'], [0, 1], 2),
                'host_100.raw': (['host_100.raw'], [], None)}, jobs
assert [j['kind'] for j in s['jobs']] == ['traces', 'memory_timeline'], s['jobs']
" "$T_DIR/$f.json"
done

# two memory timelines (two processes' export_memory_timeline) are one
# job of two runs without steps: no slowest, median or rank 0 to draw in
# full, so both were in their rank form and no curve was drawn; a
# memory timeline is always drawn in full (issue #29)
mkdir "$T_DIR/two_tl"
cp "$data/small.json" "$T_DIR/two_tl/a.raw.json"
cp "$data/small.json" "$T_DIR/two_tl/b.raw.json"
"$PR_BIN" -q --input "$T_DIR/two_tl" --json "$T_DIR/two_tl.json" \
    --html "$T_DIR/two_tl.html"
check "two memory timelines: both in full, both curves drawn" python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
assert [r.get('form') for r in s['runs']] == [None, None], s['runs']
assert all(r['memory_timeline']['peak_bytes'] == 8500 for r in s['runs'])
h = open(sys.argv[2]).read().replace('<wbr>', '')
assert h.count('peak 8.30 KiB at 3.00 ms') == 2, h.count('peak 8.30 KiB')
" "$T_DIR/two_tl.json" "$T_DIR/two_tl.html"

# review 18 #5: two memory timelines alone were "job: 2 ranks", world
# size 2, ranks_complete true, though the files name no rank or world:
# no distributed or job view (world size and completeness unknown), and
# the terminal, HTML header and PDF say "2 memory timelines"
"$PR_BIN" -q --input "$T_DIR/two_tl" --pdf "$T_DIR/two_tl.pdf"
"$PR_BIN" --input "$T_DIR/two_tl" > "$T_DIR/two_tl.term" 2>&1
check "two memory timelines: no rank, no world size, no job" python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
assert s['distributed'] is None and s['job'] is None, (s['distributed'], s['job'])
assert s.get('jobs') is None, s.get('jobs')
t = open(sys.argv[2]).read().replace('<wbr>', '')
assert '\n2 memory timelines (torch.profiler' in '\n' + t, t[:300]
assert 'rank' not in t.replace('no rank or world size', ''), t
h = open(sys.argv[3]).read().replace('<wbr>', '')
assert 'Workers</dt><dd>2 memory timelines: a.raw, b.raw<' in h, 'header'
# review 19 #9: nothing says the two files are of one device
assert 'Devices</dt><dd>not named (one per timeline)<' in h, 'devices'
assert 'ranks' not in h, 'ranks'
" "$T_DIR/two_tl.json" "$T_DIR/two_tl.term" "$T_DIR/two_tl.html"
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext -layout "$T_DIR/two_tl.pdf" "$T_DIR/two_tl.txt"
    check "two memory timelines: the PDF says so, no world size" python3 -c "
import re, sys
t = open(sys.argv[1]).read().replace('<wbr>', '')
assert re.search(r'Runs +2 memory timelines', t), t[:600]
assert 'World size' not in t, t[:600]
# memtl13: not \"Distributed no\": the files say nothing of it
assert re.search(r'Distributed +not known: a memory timeline names no rank', t), t[:600]
" "$T_DIR/two_tl.txt"
else
    skip "two memory timelines: the PDF" "no pdftotext"
fi
"$PR_BIN" --input "$data/small.json" --pdf "$T_DIR/one.pdf" > /dev/null 2>&1
check "one memory timeline: no job, no distributed view, no rank" python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
assert s['distributed'] is None and s['job'] is None
assert 'rank' not in open(sys.argv[2]).read().replace('<wbr>', '').lower()
" "$T_DIR/small.json" "$T_DIR/small.html"

check "a memory timeline alone: its verdict says so, its note says the views are absent" \
    python3 -c "
import json, sys
v = json.load(open(sys.argv[1]))['runs'][0]['verdict']
assert 'critical path' not in v['text'] and 'memory timeline' in v['text'], v
h = open(sys.argv[2]).read().replace('<wbr>', '')
assert 'the report&#39;s other views are absent, not zero' in h
" "$T_DIR/small.json" "$T_DIR/small.html"

# the shared sample (HTA's own test data)
if shared_report hta "hta/memory_analysis/memory_timeline.raw.gz"; then
    check "the HTA sample's peak and categories are HTA's" \
        hta_check "$T_DIR/hta.json" \
        "$PR_SHARED/traces/hta/memory_analysis/memory_timeline.raw.gz"
    check "the HTA sample's terminal gives the peak's make-up" grep -q \
        "Peak 2.87 GiB at 98.4 ms from the first row: Activation 84.1%" \
        "$T_DIR/hta.term"
else
    skip "the HTA sample" "../shared/traces/hta is absent"
fi
echo "1..$T_N"
