#!/bin/sh
# overview_layout.sh - the Overview's and Job overview's layout: nothing cut
# or drawn over another (issue cards item 3, from the HTML and PDF of
# every ../shared sample).
#
# - A PDF key figure's note wraps to as many lines as it needs (up to six),
#   not three then an ellipsis: a capture with a GEMM and an NCCL kernel
#   gives "time with any kernel running, over the capture (790 µs); 25.3
#   points of it communication kernels, compute alone 50.6%", four lines
#   in a box a third of the page wide (nsys_before lost "compute alone
#   84.6%", ms_cluster4 "HCCL tasks only", old2023 its last words).
# - The donut's legend keeps its share column as wide as its widest entry:
#   a step that is all one category read "10.0 ms100.0%" in the PDF (a
#   fixed 44-unit column; ms_run3/ms_run4's "23.7 ms100.0%").
# - A PDF table header wraps to three lines before it is elided: "Of it
#   after syncs" (the temporal breakdown) read "Of it / after syncs / ...".
# - The Job overview's notes are printed whole however long: npu_db1's
#   1,514-character late_rank_note stopped at "the rank that wa" (a
#   1,400-byte line) in the HTML and the PDF.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
    skip "overview layout" "python3 is needed"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" <<'PY'
import json, sys
d = sys.argv[1]
ev = []
def X(cat, name, ts, dur, tid=1, pid=1, **args):
    ev.append({"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
               "ts": ts, "dur": dur, "args": args})
X("cpu_op", "aten::mm", 10, 20, **{"External id": 1})
X("cuda_runtime", "cudaLaunchKernel", 12, 5,
  **{"External id": 1, "correlation": 1})
X("kernel", "ampere_sgemm_128x64_nn", 100, 400, tid=7, pid=0,
  **{"External id": 1, "correlation": 1, "device": 0, "stream": 7})
X("cpu_op", "c10d::allreduce_", 40, 20, **{"External id": 2})
X("cuda_runtime", "cudaLaunchKernel", 42, 5,
  **{"External id": 2, "correlation": 2})
X("kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, "
  "unsigned long, ncclWork*)", 600, 200, tid=9, pid=0,
  **{"External id": 2, "correlation": 2, "device": 0, "stream": 9})
json.dump({"schemaVersion": 1,
           "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB",
                                 "totalGlobalMem": 85097971712,
                                 "computeMajor": 8, "computeMinor": 0,
                                 "numSms": 108}],
           "traceEvents": ev}, open(d + "/cap.json", "w"))
one = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
        "pid": 1, "tid": 1, "ts": 0, "dur": 10000, "args": {}},
       {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1,
        "ts": 0, "dur": 10000, "args": {}}]
json.dump({"traceEvents": one}, open(d + "/one.json", "w"))
PY
for c in cap one; do
    if ! "$PR_BIN" -q -i "$T_DIR/$c.json" --json "$T_DIR/$c.s.json" \
            --html "$T_DIR/$c.html" --pdf "$T_DIR/$c.pdf" 2> "$T_DIR/err"; then
        not_ok "run $c: $(head -c 200 "$T_DIR/err")"
        echo "1..$T_N"
        exit 0
    fi
done

# --- a key figure's long note, whole in the PDF
want="time with any kernel running, over the capture (790 µs); 25.3 points of it communication kernels, compute alone 50.6%"
check "HTML: the GPU utilization card's note" \
    grep -q "<div class=\"k-sub\">$want</div>" "$T_DIR/cap.html"
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext "$T_DIR/cap.pdf" "$T_DIR/cap.txt"
    check "PDF: the same note whole over four lines, no ellipsis" \
        python3 -c "
import sys
t = open(sys.argv[1]).read()
ov = t[t.index('Overview\nNo steps'):t.index('Est. achieved occupancy')]
paras = [p.replace('\n', ' ') for p in ov.split('\n\n')]
assert sys.argv[2] in paras, paras
assert [p for p in ov.split('\n\n') if sys.argv[2][:20] in p][0].count('\n') == 3, ov
assert '\u2026' not in ov, ov
" "$T_DIR/cap.txt" "$want"
else
    skip "PDF: the long note" "no pdftotext"
fi

# --- a table header of three words in a narrow column wraps to three
# lines, not two then an ellipsis (the temporal breakdown's "Of it after
# syncs", the critical path's "Data loader, ms", the collectives' "Bus
# bandwidth (per call)")
if command -v pdftotext > /dev/null 2>&1; then
    check "PDF: the temporal breakdown's 'Of it after syncs' header whole" \
        python3 -c "
import sys
t = open(sys.argv[1]).read()
i = t.index('Of it\nafter\nsyncs') if 'Of it\nafter\nsyncs' in t else -1
assert i >= 0, t[t.find('Of it') - 200:t.find('Of it') + 200]
" "$T_DIR/cap.txt"
else
    skip "PDF: three-line header" "no pdftotext"
fi

# --- the donut legend: value and share apart
check "HTML donut: 100.0% right of '10.0 ms' by its own width" \
    python3 -c "
import re, sys
h = open(sys.argv[1]).read()
m = re.search(r'<text x=\"([\d.]+)\"[^>]*>10\.0 ms</text><text x=\"([\d.]+)\"[^>]*>100\.0%</text>', h)
assert m, 'no legend row'
gap = float(m.group(2)) - float(m.group(1))
# 100.0% in bold 11.5 px is about 42 units wide
assert gap >= 48, gap
" "$T_DIR/one.html"
if command -v pdftotext > /dev/null 2>&1; then
    check "PDF donut: '10.0 ms' ends before '100.0%' begins" \
        python3 -c "
import re, subprocess, sys
x = subprocess.run(['pdftotext', '-bbox', sys.argv[1], '-'],
                   capture_output=True, text=True).stdout
w = re.findall(r'<word xMin=\"([\d.]+)\" yMin=\"([\d.]+)\" xMax=\"([\d.]+)\" yMax=\"[\d.]+\">([^<]*)</word>', x)
pct = [v for v in w if v[3] == '100.0%']
assert pct, 'no 100.0%'
for p in pct:
    left = [v for v in w if abs(float(v[1]) - float(p[1])) < 2 and float(v[0]) < float(p[0])]
    near = max(left, key=lambda v: float(v[2]))
    assert float(near[2]) + 2 <= float(p[0]), (near, p)
" "$T_DIR/one.pdf"
else
    skip "PDF donut" "no pdftotext"
fi

# --- the job's long notes, whole
if [ -e "$PR_SHARED/traces/torch_npu/db_level1" ]; then
    "$PR_BIN" -q -i "$PR_SHARED/traces/torch_npu/db_level1" \
        --json "$T_DIR/db.json" 2> "$T_DIR/db.err"
    python3 - "$T_DIR/db.json" "$T_DIR/db2.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
# as long again: the note is printed whole whatever its length
s["job"]["late_rank_note"] += " " + "x" * 2000 + " the end."
json.dump(s, open(sys.argv[2], "w"))
PY
    "$PR_BIN" -q -i "$T_DIR/db.json" --html "$T_DIR/db.html" \
        --pdf "$T_DIR/db.pdf" 2> "$T_DIR/db.err"
    "$PR_BIN" -q -i "$T_DIR/db2.json" --html "$T_DIR/db2.html" \
        2> "$T_DIR/db2.err"
    check "npu_db1: the 1,514-character late-rank note whole in the HTML" \
        python3 -c "
import html, json, sys
n = json.load(open(sys.argv[1]))['job']['late_rank_note']
assert len(n) > 1400, len(n)
h = html.unescape(open(sys.argv[2]).read())
assert 'Late rank: ' + n in h, h[h.find('Late rank'):][:200]
h = html.unescape(open(sys.argv[3]).read())
assert 'x' * 2000 + ' the end.' in h
" "$T_DIR/db.json" "$T_DIR/db.html" "$T_DIR/db2.html"
    if command -v pdftotext > /dev/null 2>&1; then
        check "npu_db1: the note's last words in the PDF" \
            sh -c 'pdftotext "$1" - | tr "\n" " " | grep -q "profile it (its step, its data loader) first"' _ "$T_DIR/db.pdf"
    else
        skip "npu_db1 PDF note" "no pdftotext"
    fi
else
    skip "npu_db1 late-rank note" "../shared traces absent"
    skip "npu_db1 PDF note" "../shared traces absent"
fi

# --- the real captures: nsys_before's note, ms_run3's legend
NB=nsys/mfu_2gpu_before.sqlite
if [ -e "$PR_SHARED/traces/$NB" ] && command -v pdftotext > /dev/null 2>&1; then
    "$PR_BIN" -q -i "$PR_SHARED/traces/$NB" --pdf "$T_DIR/nb.pdf" \
        2> "$T_DIR/nb.err"
    check "nsys_before PDF: 'compute alone 84.6%' and '85.4%' under the cards" \
        sh -c 'pdftotext -layout "$1" - > "$1.txt" &&
               grep -A1 "communication kernels, compute alone" "$1.txt" | grep -q "84\.6%" &&
               grep -A1 "communication kernels, compute alone" "$1.txt" | grep -q "85\.4%"' _ "$T_DIR/nb.pdf"
else
    skip "nsys_before PDF cards" "no $NB or pdftotext"
fi
echo "1..$T_N"
