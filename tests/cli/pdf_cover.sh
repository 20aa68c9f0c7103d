#!/bin/sh
# pdf_cover.sh - the PDF cover names who wrote the inputs (the PyTorch
# profiler, the Ascend profiler, Nsight Systems ...) rather than saying
# "PyTorch profiler traces" of every input, and counts files and runs in
# the singular when there is one, runs as "(worker, span)" pairs only
# where a worker has two.  Traces from ../shared/traces.
. "$PR_SRCDIR/tests/lib.sh"

S=${PR_SHARED:-}/traces
if ! have_shared || ! command -v pdftotext >/dev/null 2>&1 ||
    ! command -v python3 >/dev/null 2>&1; then
    skip "PDF cover" "no $S, pdftotext or python3"
    echo "1..$T_N"
    exit 0
fi

n=0
for in in "torch_npu/old2023/test_rank_0" "torch_npu/text_level1" \
    "hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz" \
    "nsys/mock.sqlite" \
    "torch_npu/text_level2/rank0_ascend_pt nsys/mock.sqlite"; do
    n=$((n + 1))
    [ -e "$S/${in%% *}" ] || { skip "cover $n" "no $S/${in%% *}"; continue; }
    args=
    for x in $in; do args="$args --input $S/$x"; done
    # shellcheck disable=SC2086
    "$PR_BIN" --quiet $args --json "$T_DIR/s.json" --pdf "$T_DIR/c.pdf"
    pdftotext -f 1 -l 1 -layout "$T_DIR/c.pdf" "$T_DIR/c.txt"
    check "cover $n ($in): producers, files and runs" python3 - "$T_DIR/s.json" \
        "$T_DIR/c.txt" <<'PY'
import json, re, sys
s = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
who = {'kineto': 'PyTorch profiler', 'chrome': 'PyTorch profiler',
       'ascend': 'Ascend profiler', 'ascend_trace': 'Ascend profiler',
       'ascend_db': 'Ascend profiler', 'nsys': 'Nsight Systems'}
names = []
for i in s['inputs']:
    if who[i['format']] not in names:
        names.append(who[i['format']])
want = ' and '.join(names) + ' traces, analysed by profreport'
files, runs = len(s['inputs']), len(s['runs'])
workers = [r.get('worker') for r in s['runs']]
# "(worker, span)" only where two runs of a worker need telling apart
pair = '\\(worker, span\\) ' if len(set(workers)) < len(workers) else ''
ok = (want in text and
      re.search(r'Inputs\s+%d file%s\n' % (files, '' if files == 1 else 's'), text) and
      re.search(r'Runs\s+%d %srun%s\b' % (runs, pair, '' if runs == 1 else 's'), text) and
      'PyTorch profiler traces' not in text.replace(want, ''))
print(want, files, runs, bool(ok))
sys.exit(0 if ok else 1)
PY
done

echo "1..$T_N"
