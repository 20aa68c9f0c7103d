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
    # steps alike on both ranks (spread 0, under the noise floor, review
    # 22g #6): no slowest rank; the median is one of this job's
    assert j['job']['slowest'] is None, j['job']['slowest']
    assert runs[j['job']['median']['run']]['worker'] in mine
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

# the reports: a part per job, each from the job's own view
check "  the HTML opens each job with a heading of its own" python3 -c "
import re, sys
h = open('s.html').read()
heads = re.findall(r'<section class=\"job-head\" id=\"(job[0-9]+)\">\s*<h2>([^<]*)</h2>', h)
assert [t for _, t in heads] == ['Job 1 of 2: two_jobs #1', 'Job 2 of 2: two_jobs #2'], heads
ids = re.findall(r' id=\"([^\"]+)\"', h)
assert len(ids) == len(set(ids)), 'duplicate ids'
nav = h[h.index('<nav'):h.index('</nav>')]
assert '#job1' in nav and '#job2' in nav and '#job1-overview' not in nav
"
check "  and each job's distributed section names its own workers only" python3 -c "
import re, sys
h = open('s.html').read()
a = h[h.index('id=\"job1-distributed\"'):h.index('id=\"job2\"')]
b = h[h.index('id=\"job2-distributed\"'):]
assert 'host_100' in a and 'host_400' in a and 'host_200' not in a and 'host_300' not in a
assert 'host_200' in b and 'host_300' in b and 'host_100' not in b
"
pdftotext s.pdf s.txt 2> /dev/null
if [ -s s.txt ]; then
    check "  the PDF has a part per job" sh -c \
        'grep -q "Job 1 of 2: two_jobs #1" s.txt && grep -q "Job 2 of 2: two_jobs #2" s.txt && tr -d "\f" < s.txt | grep -q "^Job 2: Distributed"'
else
    skip "  the PDF has a part per job" "no pdftotext"
fi

"$PR_BIN" table -q --input "$F" --kind kernels --csv > t.csv
check "table: a job column names each row's job" python3 -c "
import csv
rows = list(csv.DictReader(open('t.csv')))
want = {'host_100': 'two_jobs #1', 'host_400': 'two_jobs #1',
        'host_200': 'two_jobs #2', 'host_300': 'two_jobs #2'}
assert rows and all(want[r['worker']] == r['job'] for r in rows), rows[:2]
"
"$PR_BIN" table -q --input "$F" --kind kernels --csv --job "two_jobs #2" > t2.csv
check "table --job: only that job's runs, no job column" python3 -c "
import csv
rows = list(csv.DictReader(open('t2.csv')))
assert rows and 'job' not in rows[0], rows[:1]
assert set(r['worker'] for r in rows) == {'host_200', 'host_300'}, set(r['worker'] for r in rows)
"
"$PR_BIN" table -q --input "$F" --kind kernels --job "two_jobs #3" > t3.csv 2> err
check "  a job not in the input: usage error (exit 1)" [ $? -eq 1 ]
check "  naming the nearest and the jobs there are" \
    grep -q "no job 'two_jobs #3'; did you mean 'two_jobs #1'? (jobs: two_jobs #1, two_jobs #2)" err
check "  and prints no table" [ ! -s t3.csv ]
"$PR_BIN" --input "$F" > brief.txt 2> err
check "the terminal verdict names each run's job" sh -c \
    'grep -q "^two_jobs #1 / host_100: " brief.txt && grep -q "^two_jobs #2 / host_300: " brief.txt'

# diff: runs pair within their job; job A's rank 1 is gone from the
# current folder, and must not pair with job B's rank 1
mkdir -p cur && cp "$A0" "$B0" "$B1" cur
"$PR_BIN" diff -q -b "$F" -i cur --json d.json 2> err
check "diff of two folders of jobs: runs pair within their job" python3 -c "
import json
d = json.load(open('d.json'))
pairs = sorted((r['baseline'], r['current']) for r in d['runs'])
assert pairs == [('host_100', 'host_100'), ('host_200', 'host_200'),
                 ('host_300', 'host_300')], pairs
assert d['runs_unmatched']['baseline'] == ['host_400'], d['runs_unmatched']
"

# the same traces, one folder per job
mkdir -p sub/A sub/B && cp "$A0" "$A1" sub/A && cp "$B0" "$B1" sub/B
"$PR_BIN" --input sub --json sub.json 2> err
check "one folder per job: two jobs" two_jobs sub.json
check "  named by their folders" grep -q "read 2 jobs from .*sub: A (ranks 0-1 of 2), B (ranks 0-1 of 2)" err

# --each-job: a set of reports per job, each the report of that job alone
"$PR_BIN" --input sub --each-job --json e.json --html e.html --pdf e.pdf 2> err
check "--each-job: exit 0" [ $? -eq 0 ]
check "  writes e.A.* and e.B.*, and no combined report" sh -c \
    'test -s e.A.json && test -s e.A.html && test -s e.A.pdf && test -s e.B.json && test -s e.B.html && test -s e.B.pdf && test ! -e e.json && test ! -e e.html'
check "  names each file it wrote" sh -c 'test "$(grep -c "^profreport: wrote e\.[AB]\." err)" -eq 6'
"$PR_BIN" -q --input sub/B --json b.json --html b.html --pdf b.pdf
check "  job B's JSON is the report of sub/B alone, byte for byte" cmp -s e.B.json b.json
check "  and so is its HTML" cmp -s e.B.html b.html
check "  and its PDF" cmp -s e.B.pdf b.pdf
"$PR_BIN" -q --input sub --each-job --html - > /dev/null 2> err
check "--each-job with standard output: usage error (exit 1)" [ $? -eq 1 ]
check "  saying why" grep -q "each-job writes a file per job" err
mkdir -p clash/"a b" clash/a_b && cp "$A0" "$A1" clash/"a b" && cp "$B0" "$B1" clash/a_b
"$PR_BIN" -q --input clash --each-job --html c.html 2> err
check "two jobs whose file names come out alike: refused" [ $? -eq 1 ]
check "  naming the file" grep -q "two jobs would both write c.a_b.html" err
check "  and nothing is written" sh -c '! ls c.*html > /dev/null 2>&1'
"$PR_BIN" -q --input sub/A --each-job --html one_each.html
check "--each-job on one job: the report as named" test -s one_each.html

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
"$PR_BIN" table -q --input one --kind kernels --csv > t1.csv
check "table of one job: no job column" sh -c 'test -s t1.csv && ! head -1 t1.csv | grep -q "^job,"'
"$PR_BIN" table -q --input one --kind kernels --job x > /dev/null 2> err
check "table --job on one job: usage error (exit 1)" [ $? -eq 1 ]
check "  saying so" grep -q "the input holds one job" err

# the summary is the durable artefact: its jobs re-render the same reports
"$PR_BIN" -q --input s.json --html re.html 2> err
check "a saved summary of two jobs re-renders the same HTML" cmp -s s.html re.html

# a damaged jobs entry: exit 2, the reason and the user's file name (not
# "out of memory", not the staged temporary's name), and no PDF; the loader
# refuses it with its path (jobs[] is a typed row, issue #34)
python3 -c "
import json
s = json.load(open('s.json'))
s['jobs'][1]['distributed'] = 'x'
json.dump(s, open('bad.json', 'w'))"
"$PR_BIN" -q --input bad.json --pdf bad.pdf 2> err
check "a damaged job entry: the PDF exits 2" test $? -eq 2
check "  saying why, about bad.json" grep -q "^profreport: bad.json: jobs\[1\].distributed: expected an object, got a string" err
check "  and writes no PDF" test ! -e bad.pdf

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

# the bundled examples: a V100 and an A100 capture without distributedInfo
# beside a 2-rank DDP run are three jobs, never one job whose "slowest
# rank" is the older GPU (issue #32)
"$PR_BIN" -q --input "$PR_SRCDIR/examples" --json ex.json 2> err
check "examples: traces without ranks on different GPUs are separate jobs" python3 -c "
import json
s = json.load(open('ex.json'))
runs, jobs = s['runs'], s['jobs']
by = sorted(sorted(runs[i]['worker'] for i in j['runs']) for j in jobs)
assert by == [['legacy_2021'], ['rank0', 'rank1'], ['resnet_like']], by
"

# why each split, in the summary and the Jobs intro (review 21 #4): a
# day apart, another device model without ranks
check "two_jobs: job 2's split_note gives the day between the starts" python3 -c "
import json
j = json.load(open('s.json'))['jobs']
assert j[0]['split_note'] is None, j[0]
assert j[1]['split_note'] == \"its first event is 24 hours after the first of two_jobs #1 (more than 30 min apart): a separate capture\", j[1]
"
check "  and the HTML's Jobs intro says it" \
    grep -q "two_jobs #2: its first event is 24 hours after the first of two_jobs #1 (more than 30 min apart): a separate capture." s.html
check "examples: legacy_2021 split for its device model, no rank named" python3 -c "
import json
j = {e['name']: e for e in json.load(open('ex.json'))['jobs']}
assert j['legacy_2021']['split_note'].startswith('it ran on Tesla V100-SXM2-32GB and resnet_like on NVIDIA A100-SXM4-80GB, and the traces name no rank'), j
"
# one folder, two captures of one run each: named by their workers, not
# "folder #1" / "#2", and the terminal does not read "host_100 / host_100"
mkdir -p onerun
cp "$A0" "$B0" onerun/
"$PR_BIN" -q --input onerun --json onerun.json --html onerun.html
check "two one-run jobs of one folder are named by their workers" python3 -c "
import json
j = json.load(open('onerun.json'))['jobs']
assert [e['name'] for e in j] == ['host_100', 'host_300'], j
assert 'host_100' in j[1]['split_note'] and '24 hours' in j[1]['split_note'], j[1]
"
"$PR_BIN" --input onerun > onerun.txt 2> /dev/null
check "  the terminal names each run once" sh -c \
    'grep -q "^host_100: " onerun.txt && ! grep -q "host_100 / host_100" onerun.txt'

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
    # its memory_timeline.raw.gz is no job (review 18 #6)
    check "  stderr: read N jobs and the memory timeline from the folder" \
        grep -q "read [0-9]* jobs and 1 memory timeline from $H:" err
    "$PR_BIN" -q --input "$H" --html hta.html
    check "  the HTML has a heading per job" python3 -c "
import json
n = len(json.load(open('hta.json'))['jobs'])
assert open('hta.html').read().count('<section class=\"job-head\"') == n
"
else
    skip "hta folder grouped by job" "no $H (shared traces absent)"
fi

# three captures of one folder, years apart (review 21 #4): each job named
# by its file, the reason given, and a capture's length not a mean step
M=$PR_SHARED/traces/msprof/torch_npu_ascend_profiler_output
if [ -d "$M" ]; then
    "$PR_BIN" -q --input "$M" --json npu.json --html npu.html
    check "msprof_npu_out: three jobs named by their files" python3 -c "
import json
j = json.load(open('npu.json'))['jobs']
assert [e['name'] for e in j] == ['kernel_details_910B_v1.csv', 'kernel_details_910B_v2_pmu.csv', 'trace_view'], j
assert j[0]['split_note'] is None
assert j[1]['split_note'].startswith('its first event is 373 days after the first of trace_view '), j[1]
assert j[2]['split_note'].startswith('its first event is 54 days after the first of kernel_details_910B_v1.csv '), j[2]
"
    check "  the jobs table shows a capture, not a mean step, for a run without steps" python3 -c "
import re, html
t = re.sub(r"<[^>]+>", " ", open("npu.html").read().replace("<wbr>", ""))
t = re.sub(r'\s+', ' ', html.unescape(t))
assert 'Mean step Capture, no steps' in t, 'no capture column'
assert '1. kernel_details_910B_v1.csv traces none named 1 \u2013 517 ms' in t, t[t.find('1. kernel_details'):][:120]
"
else
    skip "msprof_npu_out's three captures" "no $M (shared traces absent)"
fi
# MindSpore's fixtures: rank0's step trace and rank0-gpu both hold rank 0
MF=$PR_SHARED/traces/mindspore/fixtures
if [ -d "$MF" ]; then
    "$PR_BIN" -q --input "$MF" --json msf.json
    # review30a #10: the NPU and GPU runs that both hold rank 0 are split
    # by device kind, not the NPU rank 0 from its NPU ranks
    check "ms_fixtures: the GPU rank0-gpu split by device kind" python3 -c "
import json
j = json.load(open('msf.json'))['jobs']
assert [(e['name'], e['split_note']) for e in j] == [
    ('fixtures', 'it ran on NPUs and rank0-gpu on GPUs, and their folder holds a rank 0 of each: the captures of two device kinds, not one job'),
    ('rank0-gpu', None)], j
"
else
    skip "ms_fixtures' split" "no $MF (shared traces absent)"
fi

echo "1..$T_N"
