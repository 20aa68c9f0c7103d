#!/bin/sh
# attribution.sh - the "Attribution" section (sec_attribution.c): how much
# kernel time reaches an operator, as the HTML and the PDF show it.  The
# trace is made here: in a step, aten::mm launches a 40 us kernel (tied by
# External id), a runtime call outside any operator launches a 20 us one,
# and a 10 us kernel's correlation id names no launch: 40 of 70 us reach
# an operator, 57.1%, under the 95% that asks for a reason.  A trace
# without kernels has no such section.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "attribution" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR/k.pt.trace.json" "$T_DIR/cpu.pt.trace.json" << 'PY'
import json, sys
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
step = X("user_annotation", "ProfilerStep#1", 0, 1000)
ev = [step,
      X("cpu_op", "aten::mm", 10, 50, **{"External id": 1}),
      X("cuda_runtime", "cudaLaunchKernel", 12, 2,
        **{"External id": 1, "correlation": 1}),
      X("cuda_runtime", "cudaLaunchKernel", 200, 2, correlation=2),
      X("kernel", "gemm_kernel", 100, 40, pid=0, tid=7,
        **{"External id": 1, "correlation": 1, "device": 0, "stream": 7}),
      X("kernel", "copy_kernel", 300, 20, pid=0, tid=7,
        correlation=2, device=0, stream=7),
      X("kernel", "orphan_kernel", 400, 10, pid=0, tid=7,
        correlation=99, device=0, stream=7)]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
json.dump({"traceEvents": [step, X("cpu_op", "aten::add", 10, 5)]},
          open(sys.argv[2], "w"))
PY

"$PR_BIN" -q --input "$T_DIR/k.pt.trace.json" --html "$T_DIR/k.html" \
    --pdf "$T_DIR/k.pdf" --json "$T_DIR/k.json"
check "report written (exit $?)" [ -s "$T_DIR/k.html" ]
sec=$(sed -n '/<section id="attribution">/,/<\/section>/p' "$T_DIR/k.html")
check "HTML: an Attribution section" [ -n "$sec" ]
check "HTML: it comes right after Kernels" \
    sh -c "grep -o '<section id=\"[a-z-]*\"' '$T_DIR/k.html' |
           grep -A1 'id=\"kernels\"' | grep -q 'id=\"attribution\"'"
check "HTML: the navigation links it" \
    grep -q '<a href="#attribution">Attribution</a>' "$T_DIR/k.html"
check "HTML: 57.1% of the kernel time reaches an operator, 40 of 70 us" \
    sh -c "printf '%s' \"\$1\" | grep -q '57.1%' &&
           printf '%s' \"\$1\" | grep -q '40.0 µs of 70.0 µs kernel time'" - "$sec"
# the run's row, cell by cell: kernel time, in operators, launch not
# found (the 10 us orphan), outside operators (the 20 us copy), launches
# tied by id and by time; no Span column, as no two runs share a worker
check "HTML: the run's row of the table" python3 -c "
import re, sys
s = open(sys.argv[1]).read().replace('<wbr>', '')
i = s.index('<section id=\"attribution\">')
sec = s[i:s.index('</section>', i)]
rows = [[re.sub(r'<[^>]+>', '', c).strip()
         for c in re.findall(r'<td[^>]*>(.*?)</td>', r, re.S)]
        for r in re.findall(r'<tr[^>]*>(.*?)</tr>', sec, re.S)]
rows = [r for r in rows if r]
heads = [re.sub(r'<[^>]+>', '', h).strip()
         for h in re.findall(r'<th[^>]*>(.*?)</th>', sec, re.S)]
assert len(rows) == 1, rows
assert heads[:2] == ['Worker', 'Kernel time'], heads
assert rows[0][1:] == ['70.0 µs', '57.1%', '10.0 µs', '20.0 µs', '1', '1'], rows
" "$T_DIR/k.html"
check "HTML: under 95%, the reason is said" \
    sh -c "printf '%s' \"\$1\" | grep -q 'orphan_kernel\|copy_kernel'" - "$sec"
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext "$T_DIR/k.pdf" "$T_DIR/k.txt"
    check "PDF: the section and its figure" \
        sh -c "grep -q 'Kernel time in operators' '$T_DIR/k.txt' &&
               grep -q '57.1%' '$T_DIR/k.txt'"
else
    skip "PDF: the section and its figure" "no pdftotext"
fi

"$PR_BIN" -q --input "$T_DIR/cpu.pt.trace.json" --html "$T_DIR/c.html"
check "no kernels: no Attribution section" \
    sh -c "! grep -q 'id=\"attribution\"' '$T_DIR/c.html'"
echo "1..$T_N"
