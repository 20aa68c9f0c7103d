#!/bin/sh
# verdict.sh - verdict first (issue #31): what bounds the step and the
# findings by the gain their replay predicts, on the terminal (a plain
# run; -q silences it), as `table --kind findings`, as the HTML's first
# section and on the PDF's first page.  The step: the data loader's
# next() takes 600 of a 1000 µs step before aten::mm launches a 300 µs
# kernel (whatif.sh pins the 600 µs).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "verdict" "no python3"
    echo "1..$T_N"
    exit 0
fi
TR="$T_DIR/loader.pt.trace.json"
python3 - "$TR" << 'PY'
import json, sys
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
ev = [X("user_annotation", "ProfilerStep#1", 0, 1000),
      X("user_annotation",
        "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 0, 600),
      X("cpu_op", "aten::mm", 600, 100),
      X("cuda_runtime", "cudaLaunchKernel", 650, 5, correlation=1),
      X("kernel", "volta_sgemm_128x64_nn", 660, 300, pid=0, tid=7,
        correlation=1, device=0, stream=7)]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY

"$PR_BIN" --input "$TR" > "$T_DIR/out.txt" 2> "$T_DIR/err.txt"
check "a plain run exits 0" [ $? -eq 0 ]
check "the terminal says what bounds the step" \
    grep -q "Bound by the host in 1 of 1 step (mean step 1.0 ms" "$T_DIR/out.txt"
check "the terminal's first finding: the data loader, 600 µs (60.0%)" \
    grep -q "^  1\. Input loading on the critical path: saves 600 µs per step (60\.0%) \[dataloader\]" \
    "$T_DIR/out.txt"
check "the terminal names its evidence" \
    grep -q "changed most in the replay: enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ 600 µs" \
    "$T_DIR/out.txt"
"$PR_BIN" -q --input "$TR" > "$T_DIR/quiet.txt" 2>&1
check "-q prints nothing" [ ! -s "$T_DIR/quiet.txt" ]

"$PR_BIN" table --kind findings --csv --input "$TR" > "$T_DIR/f.csv" 2> "$T_DIR/err.txt"
check "table --kind findings: the dataloader row with its gain" \
    python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows, 'no rows'
r = rows[0]
assert r['finding'] == 'Input loading on the critical path', r
# numbers with their units, an order that is no rank (review 25g #10)
assert 'rank' not in r and r['order'] == '1', r
assert abs(float(r['gain_us']) - 600) < 0.5, r
assert abs(float(r['gain_pct']) - 60) < 0.05, r
for k in ('gain_us', 'bound_us', 'gain_pct'):
    assert r[k] == '' or float(r[k]) >= 0, (k, r)
" "$T_DIR/f.csv"

"$PR_BIN" -q --input "$TR" --html "$T_DIR/r.html" --pdf "$T_DIR/r.pdf"
check "the HTML opens with the verdict, linked to its evidence" \
    python3 -c "
import re, sys
s = open(sys.argv[1]).read()
ids = re.findall(r'<section id=\"([^\"]+)\"', s)
assert ids and ids[0] == 'verdict', ids[:3]
v = s[s.index('<section id=\"verdict\"'):]
v = v[:v.index('</section>')]
assert 'Bound by the host' in v and 'Input loading on the critical path' in v
# each finding links to its advice and to the critical path, which exist
assert 'href=\"#recommendations\"' in v and 'href=\"#critical-path\"' in v, v
assert '<section id=\"recommendations\"' in s and '<section id=\"critical-path\"' in s
" "$T_DIR/r.html"
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext -f 1 -l 1 "$T_DIR/r.pdf" "$T_DIR/p1.txt"
    check "the PDF's first page holds the verdict and its finding" \
        sh -c 'grep -q "^Verdict" "$1" && grep -q "Input loading on the critical path" "$1" && grep -q "Bound by the host" "$1"' \
        _ "$T_DIR/p1.txt"
else
    skip "the PDF's first page" "no pdftotext"
fi

# a CPU-only run (HTA's cpu_only sample: gloo collectives, no device): its
# verdict says so and that communication bounds it (the gloo all_reduces
# hold 178.8 of the 210.1 ms step while the main thread records nothing:
# review R19); the communication finding names gradient accumulation's
# replay (half the collectives' time per step's worth) but does not claim
# it (it changes the effective batch; nothing computes to overlap with:
# review-3 finding 4), and gives the gloo all-reduces' 4.6 MiB at 23 MB/s
# a call (44 MB/s together, two in flight: issue #31) as rates, not the
# link's: buckets of 1.23 and 7.94 MiB take the same time, so latency or
# late peers, not the interface (review-5 finding 3; comm_size.sh); no
# link points at the Critical path
# part its report leaves out
CPU=hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz
if have_shared && [ -f "$PR_SHARED/traces/$CPU" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/$CPU" --json "$T_DIR/cpu.json" \
        --html "$T_DIR/cpu.html"
    check "CPU-only: bound by communication; accumulation named not claimed, slow gloo, no dead link" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
v = r['verdict']
assert v['text'].startswith('A CPU-only run (1 step'), v
assert v['bound'] == 'communication', v
assert 'Bound by communication in 1 of 1 step' in v['text'], v
s = r['critical_path']['steps'][0]
assert abs(s['by_kind_us']['communication'] - 178777.427) < 0.01, s
assert s['top'][0]['name'] == 'gloo:all_reduce', s['top']
f = [f for f in v['findings'] if f['id'] == 'communication'][0]
assert f['gain_us'] is None, f
assert f['href_evidence'] == '#recommendations', f
assert f['evidence'].startswith('gloo:all_reduce'), f
w = {x['id']: x for x in r['critical_path']['what_if']}
assert abs(w['gradient_accumulation']['gain_us'] - 178777.427 / 2) < 0.01, w
c = {x['id']: x for x in r['recommendations'] + r.get('observations', [])}['communication']
assert f['kind'] == 'observation', f
assert 'replays to 42.5% less time' in c['text'] and 'not claimed' in c['text'], c
assert 'gloo:all_reduce moves 4.6 MiB a call on average at 23 MB/s of algorithm bandwidth a call' in c['text'], c
assert 'up to 2 calls in flight at once, their bytes over the time any was in flight 44 MB/s' in c['text'], c
assert 'Time does not grow with size' in c['text'], c
assert 'GLOO_SOCKET_IFNAME' not in c['text'], c
h = open(sys.argv[2]).read()
assert 'href=\"#critical-path\"' not in h
assert 'see Critical path' not in h
" "$T_DIR/cpu.json" "$T_DIR/cpu.html"
else
    skip "CPU-only verdict" "no $PR_SHARED/traces/$CPU"
fi
echo "1..$T_N"
