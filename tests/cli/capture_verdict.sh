#!/bin/sh
# capture_verdict.sh - a run without steps (no ProfilerStep: the capture is
# its one window) has its verdict worded over the capture, in every
# renderer: no "1 of 1 step", no "mean step" (review 20 #8: hta_cp_alexnet's
# HTML and PDF read "Bound by the host in 1 of 1 step (mean step 43.46 s"
# beside the Overview's "No steps" and the terminal's "not a step").  The
# trace is verdict.sh's without its ProfilerStep: the data loader's next()
# takes 600 of the 960 µs from its start to the kernel's end.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "capture verdict" "no python3"
    echo "1..$T_N"
    exit 0
fi
TR="$T_DIR/nostep.pt.trace.json"
python3 - "$TR" << 'PY'
import json, sys
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
ev = [X("user_annotation",
        "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 0, 600),
      X("cpu_op", "aten::mm", 600, 100),
      X("cuda_runtime", "cudaLaunchKernel", 650, 5, correlation=1),
      X("kernel", "volta_sgemm_128x64_nn", 660, 300, pid=0, tid=7,
        correlation=1, device=0, stream=7)]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY

"$PR_BIN" --input "$TR" > "$T_DIR/out.txt" 2> "$T_DIR/err.txt"
check "a plain run exits 0" [ $? -eq 0 ]
check "the terminal: bound by the host over the capture, its length given" \
    grep -q "^  Bound by the host over the capture (960 µs, no steps; on the critical path: " \
    "$T_DIR/out.txt"
check "the terminal: no step count, no mean step, no gain per step" \
    sh -c '! grep -q "of 1 step\|mean step\|per step" "$1"' _ "$T_DIR/out.txt"
check "the terminal: the finding's gain over the capture" \
    grep -q "saves 600 µs over the capture (62\.5%) \[dataloader\]" "$T_DIR/out.txt"

"$PR_BIN" table --kind findings --input "$TR" > "$T_DIR/f.txt" 2> "$T_DIR/err.txt"
check "table --kind findings: the capture's columns, no '/ step'" \
    sh -c 'head -1 "$1" | grep -q "Saves  *Of capture" && ! grep -q "/ step\|Of step" "$1"' \
    _ "$T_DIR/f.txt"

"$PR_BIN" -q --input "$TR" --json "$T_DIR/s.json" --html "$T_DIR/r.html" \
    --pdf "$T_DIR/r.pdf"
check "the summary keeps its figures; its verdict text speaks of the capture" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['step_summary']['basis'] == 'capture', r['step_summary']
v = r['verdict']
assert v['bound'] == 'host' and v['bound_steps'] == 1 and v['steps'] == 1, v
assert v['text'].startswith('Bound by the host over the capture (960'), v
assert 'step' not in v['text'].replace('no steps', ''), v['text']
" "$T_DIR/s.json"
check "the HTML's Verdict and Critical path say 'over the capture', no '1 of 1 step'" \
    python3 -c "
import html, re, sys
s = open(sys.argv[1]).read().replace('<wbr>', '')
def part(i):
    p = s[s.index('<section id=\"%s\"' % i):]
    p = html.unescape(re.sub(r'<[^>]+>', ' ', p[:p.index('</section>')]))
    return re.sub(r'\s+', ' ', p)
v, c = part('verdict'), part('critical-path')
assert 'Bound by the host over the capture' in v, v
assert 'Bound by the host over the capture (no steps)' in c, c
assert 'gives the capture back within' in c, c
for t in (v, c):
    assert '1 of 1 step' not in t and 'mean step' not in t, t
    assert 'Of capture' in t and 'Of step' not in t and '/ step' not in t, t
" "$T_DIR/r.html"
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext -f 1 -l 1 "$T_DIR/r.pdf" "$T_DIR/p1.txt"
    check "the PDF's first page: over the capture, no '1 of 1 step'" \
        sh -c 'tr "\n" " " < "$1" | grep -q "Bound by the host over the capture" && ! grep -q "1 of 1 step\|mean step" "$1"' \
        _ "$T_DIR/p1.txt"
else
    skip "the PDF's first page" "no pdftotext"
fi

# a shared trace: HTA's alexnet critical-path sample holds no ProfilerStep;
# 43.46 s from its first to its last event, 97% of the path runtime calls
# (cudaDeviceGetStreamPriorityRange's 29.9 s first use)
AX=hta/critical_path/alexnet
if have_shared && [ -d "$PR_SHARED/traces/$AX" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/$AX" --json "$T_DIR/ax.json"
    check "alexnet: bound by the host over the capture (43.46 s), cold start of the capture" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
t = r['verdict']['text']
assert t.startswith('Bound by the host over the capture (43.46 s, no steps;'), t
assert 'not launch overhead: without them the capture would be' in t, t
assert 'step' not in t.replace('no steps', ''), t
f = r['verdict']['findings'][0]
assert f['id'] == 'cold_step' and 'step' not in f['title'], f
" "$T_DIR/ax.json"
else
    skip "alexnet capture verdict" "no $PR_SHARED/traces/$AX"
fi
echo "1..$T_N"
