#!/bin/sh
# pdf_names.sh - issue #32: the PDF report's and the diff PDF's name cells
# are shortened like the terminal's, HTML's and Markdown's, per column, so
# two different kernels never read alike.  Eight kernels whose names
# differ only in the middle (FunctorA..FunctorH, deep in their template
# arguments) cut one cell at a time all read
# "elementwise_kernel_wi...": each must keep its letter.  The name cells
# are read back from pdftotext -layout: a row's first line holds two
# figures or more (the bar chart above the table, whose labels are told
# apart too, has one a line), the lines under it up to a blank line
# continue its name.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1 ||
    ! command -v pdftotext > /dev/null 2>&1; then
    skip "PDF name cells" "no python3 or pdftotext"
    echo "1..$T_N"
    exit 0
fi

cat > "$T_DIR/forms.py" << 'PY'
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().replace("\f", "\n")
lines = lines.split("\n")
num = re.compile(r"\s{2,}[-+]?[0-9][0-9.,]*\s*(µs|ms|s|%)(\s|$)")
fig = re.compile(r"[0-9][0-9.,]*\s*(µs|ms|s|%)(?=\s|$)")
i = 0
while i < len(lines):
    # a table row: two figures or more (a bar chart's label has one)
    if not lines[i].strip() or num.search(lines[i]) is None or \
            len(fig.findall(lines[i])) < 2:
        i += 1
        continue
    lead = len(lines[i]) - len(lines[i].lstrip())
    form = re.split(r"\s{2,}", lines[i].strip())[0]
    i += 1
    while i < len(lines) and lines[i].strip() and not num.search(lines[i]):
        if len(lines[i]) - len(lines[i].lstrip()) <= lead + 2:
            form += re.split(r"\s{2,}", lines[i].strip())[0]
        i += 1
    if re.search(sys.argv[2], form):
        print(form)
PY
# forms LAYOUT_TXT REGEX: the name cells that match REGEX, one a line
forms() { python3 "$T_DIR/forms.py" "$1" "$2"; }

# trace A_US: eight kernels, kernel i lasting A_US + 10 i us
trace() {
    python3 - "$1" "$2" << 'PY'
import json, sys
ev = []
def X(cat, name, ts, dur, tid=1, pid=1, **args):
    ev.append({"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
               "ts": ts, "dur": dur, "args": args})
X("user_annotation", "ProfilerStep#1", 0, 10000)
for i in range(8):
    c = i + 1
    k = ("void at::native::elementwise_kernel_with_index<128, 4, at::native::"
         "gpu_kernel_impl_nocast<at::native::Functor%s_float_with_a_long_tail_"
         "of_template_words>(at::TensorIteratorBase&, at::native::Functor "
         "const&)::{lambda(int)#1}>(int, at::native::Functor)" % "ABCDEFGH"[i])
    ts = 100 + i * 1000
    X("cpu_op", "aten::op_%d" % i, ts, 50, **{"External id": c})
    X("cuda_runtime", "cudaLaunchKernel", ts + 1, 2,
      **{"External id": c, "correlation": c})
    X("kernel", k, 5000 + ts, int(sys.argv[2]) + 10 * i, tid=7, pid=0,
      **{"External id": c, "correlation": c, "device": 0, "stream": 7})
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(sys.argv[1], "w"))
PY
}
trace "$T_DIR/a.pt.trace.json" 100
trace "$T_DIR/b.pt.trace.json" 200

"$PR_BIN" -q -i "$T_DIR/a.pt.trace.json" --pdf "$T_DIR/r.pdf" 2> "$T_DIR/err"
check "report exits 0 ($(head -c 200 "$T_DIR/err"))" [ $? -eq 0 ]
pdftotext -layout "$T_DIR/r.pdf" "$T_DIR/r.txt"
# the kernels table's rows are the only ones whose cut name keeps the
# Functor letter beside the operator column (aten::op_N)
forms "$T_DIR/r.txt" 'Functor[A-H]' | grep -v 'lambda(int)#1}>$' \
    > "$T_DIR/r.forms"
n=$(wc -l < "$T_DIR/r.forms")
u=$(sort -u "$T_DIR/r.forms" | wc -l)
check "report PDF: 8 kernel rows cut, 8 different forms (got $n rows, $u forms)" \
    [ "$n" -eq 8 -a "$u" -eq 8 ]
check "report PDF: each cut form keeps its own letter" sh -c '
    for c in A B C D E F G H; do
        [ "$(grep -c "Functor$c" "$1")" -eq 1 ] || exit 1
    done' - "$T_DIR/r.forms"
check "report PDF: the cut forms are shortened (an ellipsis)" \
    [ "$(grep -c '…' "$T_DIR/r.forms")" -eq 8 ]

"$PR_BIN" diff -q -b "$T_DIR/a.pt.trace.json" -i "$T_DIR/b.pt.trace.json" \
    --pdf "$T_DIR/d.pdf" > /dev/null 2> "$T_DIR/err"
check "diff PDF written ($(head -c 200 "$T_DIR/err"))" [ -s "$T_DIR/d.pdf" ]
pdftotext -layout "$T_DIR/d.pdf" "$T_DIR/d.txt"
forms "$T_DIR/d.txt" 'elementwise_kernel' > "$T_DIR/d.forms"
n=$(wc -l < "$T_DIR/d.forms")
u=$(sort -u "$T_DIR/d.forms" | wc -l)
check "diff PDF: 8 kernel rows, 8 different forms (got $n rows, $u forms)" \
    [ "$n" -eq 8 -a "$u" -eq 8 ]
check "diff PDF: each keeps its own letter" sh -c '
    for c in A B C D E F G H; do
        [ "$(grep -c "Functor$c" "$1")" -eq 1 ] || exit 1
    done' - "$T_DIR/d.forms"

# the HTA pair: every kernel row of the diff PDF reads as its own kernel
H=$PR_SHARED/traces/hta/trace_diff
if have_shared && [ -f "$H/control/control.json.gz" ]; then
    "$PR_BIN" diff -q -b "$H/control/control.json.gz" \
        -i "$H/test/test.json.gz" --top 40 --pdf "$T_DIR/h.pdf" > /dev/null
    pdftotext -layout "$T_DIR/h.pdf" "$T_DIR/h.txt"
    forms "$T_DIR/h.txt" '<|[Kk]ernel' > "$T_DIR/h.forms"
    n=$(wc -l < "$T_DIR/h.forms")
    u=$(sort -u "$T_DIR/h.forms" | wc -l)
    check "HTA diff PDF: $n kernel rows, as many forms ($u)" \
        [ "$n" -gt 40 -a "$n" -eq "$u" ]
else
    skip "HTA diff PDF kernel rows read apart" "no $H"
fi

echo "1..$T_N"
