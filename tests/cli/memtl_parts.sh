#!/bin/sh
# memtl_parts.sh - several torch.profiler raw memory timelines beside
# traces (memtl13): each timeline is a part of its own, its curve, peak and
# categories its file's alone (two shared one part, "a.raw, b.raw"), never
# summed with another's; a timeline whose file is named after a trace
# beside it (worker_a.raw.json by worker_a.pt.trace.json, as torch.profiler's
# memory tutorial names both by one prefix) says so in the summary
# (jobs[].trace_worker), stderr, the terminal, the HTML and the PDF.  The
# fixtures are tests/data/memtl/two_beside and two_ranks (README.md); each
# file's peak is recomputed here from the raw rows, as HTA sums them.
. "$PR_SRCDIR/tests/lib.sh"

data=$PR_SRCDIR/tests/data/memtl
if ! command -v python3 > /dev/null 2>&1; then
    skip "memory timeline parts" "no python3"
    echo "1..$T_N"
    exit 0
fi

# peaks.py RAW...: "name peak_bytes peak_at_us" per file, HTA's
# _process_raw_events (times from the first positive one)
cat > "$T_DIR/peaks.py" << 'EOF'
import json, os, sys
for p in sys.argv[1:]:
    rows = json.load(open(p))
    times, sizes, t_min = [], [], -1
    for t, _, b, c in rows:
        if t_min == -1 or (0 < t < t_min):
            t_min = t
        if not times or t != times[-1]:
            times.append(t)
            sizes.append(sizes[-1][:] if sizes else [0] * 8)
        sizes[-1][c] += b
    times = [t_min if t < 0 else t for t in times]
    tot = [sum(s) for s in sizes]
    i = max(range(len(tot)), key=lambda k: (tot[k], -k))
    name = os.path.basename(p)[:-len('.json')]
    print(name, tot[i], (times[i] - t_min) / 1e3)
EOF

# check.py SUMMARY PEAKS HTML TERM PDFTEXT TRACE_WORKERS: every timeline a
# part of its own, its peak its file's, the parts counted alike
cat > "$T_DIR/check.py" << 'EOF'
import html, json, re, sys
s = json.load(open(sys.argv[1]))
want = {l.split()[0]: (int(l.split()[1]), float(l.split()[2]))
        for l in open(sys.argv[2])}
ties = dict(kv.split('=') for kv in sys.argv[6].split(',') if kv)
runs = s['runs']
tl = [j for j in s['jobs'] if j.get('kind') == 'memory_timeline']
# one part per file, named by it, holding its run alone
assert sorted(j['name'] for j in tl) == sorted(want), [j['name'] for j in tl]
for j in tl:
    assert len(j['runs']) == 1, j
    r = runs[j['runs'][0]]
    assert r['worker'] == j['name'], (r['worker'], j['name'])
    m = r['memory_timeline']
    assert (m['peak_bytes'], m['peak_at_us']) == want[j['name']], \
        (j['name'], m['peak_bytes'], m['peak_at_us'], want[j['name']])
    assert j['trace_worker'] == (ties.get(j['name']) or None), j
    assert j['ranks'] == [] and j['world_size'] is None, j
assert all(j.get('trace_worker') is None for j in s['jobs']
           if j.get('kind') != 'memory_timeline'), 'a job of traces: null'
n = len(s['jobs'])
h = html.unescape(open(sys.argv[3]).read().replace('<wbr>', ''))
heads = re.findall(r'Part [0-9]+ of [0-9]+: [^<]*', h)
assert heads == ['Part %d of %d: %s' % (k + 1, n, j['name'])
                 for k, j in enumerate(s['jobs'])], heads
# each timeline's Memory timeline section: its own peak, no other's
for k, j in enumerate(s['jobs']):
    if j.get('kind') != 'memory_timeline':
        continue
    i = h.index('id="job%d-memory_timeline"' % (k + 1))
    sec = h[i:h.index('<section', i)]
    peaks = re.findall(r'Peak ([0-9.]+ [KMG]iB|[0-9]+ B) at', sec)
    assert len(peaks) == 1, (j['name'], peaks)
    tie = ties.get(j['name'])
    sub = re.findall(r'Part %d of %d: [^<]*</[^>]*>\s*<[^>]*>([^<]*)' %
                     (k + 1, n), h)
    assert sub and (("named after %s's trace" % tie in sub[0]) if tie
                    else 'named after' not in sub[0]), sub
assert h.count('-memory_timeline"') == len(tl), h.count('-memory_timeline"')
t = open(sys.argv[4]).read().replace('<wbr>', '')
for name, (peak, at) in want.items():
    tie = ties.get(name)
    line = [l for l in t.splitlines() if l.startswith(name + ':') or
            l.startswith(name + ', named after ')]
    assert len(line) == 1, (name, line)
    assert ("named after %s's trace" % tie in line[0]) if tie else \
        'named after' not in line[0], line
p = open(sys.argv[5]).read().replace('<wbr>', '') if sys.argv[5] != '-' else None
if p is not None:
    for k, j in enumerate(s['jobs']):
        assert 'Part %d of %d: %s' % (k + 1, n, j['name']) in p, j['name']
    assert p.count('Named after') == len(ties), p.count('Named after')
EOF

peaks() { # FOLDER: its timelines' peaks, recomputed
    python3 "$T_DIR/peaks.py" "$1"/*.raw.json > "$T_DIR/$2.peaks"
}
run_all() { # FOLDER NAME
    "$PR_BIN" --input "$1" --json "$T_DIR/$2.json" --html "$T_DIR/$2.html" \
        --pdf "$T_DIR/$2.pdf" > /dev/null 2> "$T_DIR/$2.err"
    "$PR_BIN" --input "$1" > "$T_DIR/$2.term" 2> /dev/null
    if command -v pdftotext > /dev/null 2>&1; then
        pdftotext -layout "$T_DIR/$2.pdf" "$T_DIR/$2.txt"
    else
        echo - > "$T_DIR/$2.txt"
    fi
}
pdf_of() { # NAME: the PDF's text, or '-' when pdftotext is absent
    if [ "$(cat "$T_DIR/$1.txt")" = "-" ]; then echo -; else
        echo "$T_DIR/$1.txt"; fi
}

# two timelines beside one trace, neither named after it: two parts, a.raw
# (peak 8500 B at 3 ms) and b.raw (8000 B at 1 ms); summed they would peak
# at 15500 B at 1 ms
peaks "$data/two_beside" tb
run_all "$data/two_beside" tb
check "two timelines beside a trace: each its own part, its own peak" \
    python3 "$T_DIR/check.py" "$T_DIR/tb.json" "$T_DIR/tb.peaks" \
    "$T_DIR/tb.html" "$T_DIR/tb.term" "$(pdf_of tb)" ""
check "two timelines beside a trace: stderr counts 2 memory timelines" \
    grep -q "read 1 job and 2 memory timelines from .*: a.raw: a memory timeline (torch.profiler's export_memory_timeline_raw), shown on its own, b.raw: " \
    "$T_DIR/tb.err"
# the job's name after the job, the timelines' after the timelines (review
# 21 #12: "2 memory timelines: a.raw, b.raw, two_beside" read as three)
check "two timelines beside a trace: the header counts 1 run and 2 timelines" \
    grep -q "1 run in 1 job, two_beside; 2 memory timelines: a.raw, b.raw<" \
    "$T_DIR/tb.html"
check "  the jobs table counts no run for a timeline" python3 -c "
import html, re, sys
t = re.sub(r'<[^>]+>', ' ', open(sys.argv[1]).read().replace('<wbr>', ''))
t = re.sub(r'\s+', ' ', html.unescape(t))
assert '1. a.raw memory timeline \u2013 \u2013' in t, t[t.find('1. a.raw'):][:80]
assert '3. two_beside traces none named 1 ' in t, t[t.find('3. two_beside'):][:80]
" "$T_DIR/tb.html"
if [ "$(pdf_of tb)" != "-" ]; then
    check "  the PDF cover names the timelines' producer" \
        grep -q "PyTorch profiler traces and torch.profiler memory timelines, analysed by profreport" \
        "$(pdf_of tb)"
else
    skip "  the PDF cover names the timelines' producer" "no pdftotext"
fi

# one per rank of a 2-rank job, each named after its rank's trace
# (host_100.raw.json by host_100.1714521600000.pt.trace.json)
peaks "$data/two_ranks" tr
run_all "$data/two_ranks" tr
check "a timeline per rank: each its own part, named after its rank's trace" \
    python3 "$T_DIR/check.py" "$T_DIR/tr.json" "$T_DIR/tr.peaks" \
    "$T_DIR/tr.html" "$T_DIR/tr.term" "$(pdf_of tr)" \
    "host_100.raw=host_100,host_400.raw=host_400"
check "a timeline per rank: the trace's rank is named beside it" python3 -c "
import html, re, sys
h = html.unescape(open(sys.argv[1]).read().replace('<wbr>', ''))
i = h.index('id=\"jobs\"')
idx = re.sub(r'\s+', ' ', re.sub(r'<[^>]*>', ' ', h[i:h.index('</section>', i)]))
assert \"host_100.raw is named after host_100's trace (rank 0); host_400.raw \" \\
    \"after host_400's trace (rank 1).\" in idx, idx
t = open(sys.argv[2]).read().replace('<wbr>', '')
assert \"host_400.raw, named after host_400's trace (rank 1): torch.profiler\" in t, t
e = open(sys.argv[3]).read().replace('<wbr>', '')
assert \"host_100.raw: a memory timeline (torch.profiler's export_memory_timeline_raw) named after host_100's trace (rank 0), shown on its own\" in e, e
assert \"that trace's by its name alone\" in e, e
" "$T_DIR/tr.html" "$T_DIR/tr.term" "$T_DIR/tr.err"
check "a timeline per rank: the job of traces keeps its 2 ranks" python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
j = [j for j in s['jobs'] if j['kind'] == 'traces']
assert len(j) == 1 and j[0]['ranks'] == [0, 1] and j[0]['world_size'] == 2, j
" "$T_DIR/tr.json"
# the saved summary keeps the parts and the ties
"$PR_BIN" --input "$T_DIR/tr.json" --json "$T_DIR/tr2.json" \
    --html "$T_DIR/tr2.html" --pdf "$T_DIR/tr2.pdf" > /dev/null 2>&1
"$PR_BIN" --input "$T_DIR/tr.json" > "$T_DIR/tr2.term" 2> /dev/null
[ "$(cat "$T_DIR/tr.txt")" = "-" ] || pdftotext -layout "$T_DIR/tr2.pdf" \
    "$T_DIR/tr2.txt"
[ "$(cat "$T_DIR/tr.txt")" = "-" ] && echo - > "$T_DIR/tr2.txt"
check "a timeline per rank, re-drawn from its summary: the same parts" \
    python3 "$T_DIR/check.py" "$T_DIR/tr2.json" "$T_DIR/tr.peaks" \
    "$T_DIR/tr2.html" "$T_DIR/tr2.term" "$(pdf_of tr2)" \
    "host_100.raw=host_100,host_400.raw=host_400"

# a name that only begins alike is no tie: worker_ab.raw is not worker_a's
mkdir "$T_DIR/ab"
cp "$data/beside_trace/worker_a.pt.trace.json" "$T_DIR/ab/"
cp "$data/small.json" "$T_DIR/ab/worker_ab.raw.json"
cp "$data/two_beside/b.raw.json" "$T_DIR/ab/worker_a.raw.json"
peaks "$T_DIR/ab" ab
run_all "$T_DIR/ab" ab
check "worker_ab.raw is not named after worker_a's trace, worker_a.raw is" \
    python3 "$T_DIR/check.py" "$T_DIR/ab.json" "$T_DIR/ab.peaks" \
    "$T_DIR/ab.html" "$T_DIR/ab.term" "$(pdf_of ab)" "worker_a.raw=worker_a"

# an older summary (tests/data/memtl/older/two_beside.json, written by the
# build before review 19 #9, fa320ece, of two_beside): its two timelines in
# one entry "two_beside (memory timeline)", no kind; re-drawn, each is a
# part named by its file, as from the traces
O=$data/older/two_beside.json
run_all "$O" old
check "an older summary's shared timeline entry: one part per file, by name" \
    python3 "$T_DIR/check.py" "$T_DIR/old.json" "$T_DIR/tb.peaks" \
    "$T_DIR/old.html" "$T_DIR/old.term" "$(pdf_of old)" ""
check "an older summary: no folder-named timeline, 2 timelines counted" \
    python3 -c "
import html, sys
for f in sys.argv[1:]:
    t = html.unescape(open(f).read())
    assert '(memory timeline)' not in t, f
e = open(sys.argv[3]).read().replace('<wbr>', '')
assert 'read 1 job and 2 memory timelines from' in e, e
" "$T_DIR/old.html" "$T_DIR/old.term" "$T_DIR/old.err"
# where the older summary does not name the file (a run of no worker), the
# entry keeps its name, still a memory timeline: no run, no rank
python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
s['runs'][0]['worker'] = s['inputs'][0]['worker'] = ''
json.dump(s, open(sys.argv[2], 'w'))
" "$O" "$T_DIR/noname.json"
run_all "$T_DIR/noname.json" nn
check "an older timeline of no file name keeps its name, counted as no run" \
    python3 -c "
import html, json, re, sys
s = json.load(open(sys.argv[1]))
jobs = [(j['name'], j.get('kind'), j['runs']) for j in s['jobs']]
assert jobs == [('two_beside (memory timeline)', 'memory_timeline', [0]),
                ('b.raw', 'memory_timeline', [1]),
                ('two_beside', None, [2])], jobs
h = html.unescape(open(sys.argv[2]).read().replace('<wbr>', ''))
assert '1 run in 1 job, two_beside; 2 memory timelines: two_beside (memory timeline), b.raw<' in h, \
    re.findall(r'Workers</dt><dd>[^<]*', h)
t = open(sys.argv[3]).read().replace('<wbr>', '')
assert '\ntwo_beside (memory timeline): torch.profiler' in '\n' + t, t
" "$T_DIR/nn.json" "$T_DIR/nn.html" "$T_DIR/nn.term"

# timelines alone in two folders, one file name in both (a/x.raw,
# b/x.raw): a part each (as each folder's were one part), named with its
# folder where the file names are alike, each its own peak; alone in one
# folder they stay no job (memory_timeline.sh)
mkdir -p "$T_DIR/tf/a" "$T_DIR/tf/b"
cp "$data/small.json" "$T_DIR/tf/a/x.raw.json"
cp "$data/two_beside/b.raw.json" "$T_DIR/tf/b/x.raw.json"
run_all "$T_DIR/tf" tf
check "one file name in two folders: a part each, named by folder and file" \
    python3 -c "
import html, json, re, sys
s = json.load(open(sys.argv[1]))
jobs = [(j['name'], j['kind'], s['runs'][j['runs'][0]]['memory_timeline']['peak_bytes'])
        for j in s['jobs']]
assert jobs == [('a/x.raw', 'memory_timeline', 8500),
                ('b/x.raw', 'memory_timeline', 8000)], jobs
h = html.unescape(open(sys.argv[2]).read().replace('<wbr>', ''))
assert '2 memory timelines: a/x.raw, b/x.raw<' in h, re.findall(r'Workers</dt><dd>[^<]*', h)
t = open(sys.argv[3]).read().replace('<wbr>', '')
assert '\na/x.raw: torch.profiler' in '\n' + t and '\nb/x.raw: torch.profiler' in t, t
" "$T_DIR/tf.json" "$T_DIR/tf.html" "$T_DIR/tf.term"

# the names torch.profiler's users give: tensorboard_trace_handler's
# "{worker}.{time}.pt.trace.json" with a timeline "{worker}.{time}.raw.json",
# and the memory tutorial's one prefix ("{prefix}.json.gz" and
# "{prefix}.raw.json.gz")
mkdir "$T_DIR/names"
cp "$data/two_ranks/host_100.1714521600000.pt.trace.json" "$T_DIR/names/"
cp "$data/small.json" "$T_DIR/names/host_100.1714521600000.raw.json"
gzip -c "$data/beside_trace/worker_a.pt.trace.json" \
    > "$T_DIR/names/localhost_Nov_30_14_00_00.json.gz"
gzip -c "$data/two_beside/b.raw.json" \
    > "$T_DIR/names/localhost_Nov_30_14_00_00.raw.json.gz"
"$PR_BIN" -q --input "$T_DIR/names" --json "$T_DIR/names.json"
check "tensorboard_trace_handler's and the tutorial's names tie a timeline to its trace" \
    python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
ties = {j['name']: j['trace_worker'] for j in s['jobs']
        if j['kind'] == 'memory_timeline'}
assert ties == {'host_100.1714521600000.raw': 'host_100',
                'localhost_Nov_30_14_00_00.raw': 'localhost_Nov_30_14_00_00'}, ties
" "$T_DIR/names.json"

echo "1..$T_N"
